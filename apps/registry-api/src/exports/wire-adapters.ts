import {
  AdapterError,
  getAdapter,
  type Provider,
  type ToolsToWireOptions,
} from '@toolgate/adapters';
import type { ExportBody } from '@toolgate/contract';
import { ToolgateError, type Issue, type ToolIR } from '@toolgate/toolir';
import { ToolException } from '../problem/tool.exception';

/** The wire tools of one export and the adapter's report of what the format could not carry. */
export type WireTools = Pick<ExportBody, 'tools' | 'request_options' | 'downgrades'>;

export function toolsToWire(
  format: Provider,
  irs: readonly ToolIR[],
  options: ToolsToWireOptions = {},
): WireTools {
  try {
    const result = getAdapter(format).toolsToWire(irs, options);
    return {
      tools: result.tools,
      request_options: result.requestOptions,
      downgrades: result.report,
    };
  } catch (error) {
    // Two tools the wire would name alike: an export cannot hand out a name that calls could not
    // map back to one tool, so this is the catalog's conflict to fix (rename one), not a 500.
    if (error instanceof AdapterError && error.code === 'name_collision') {
      throw new ToolException(
        'conflict',
        `Two tools of this export would share one ${format} tool name; rename one of them.`,
        { issues: [{ path: '/query/format', message: error.message }], cause: error },
      );
    }
    throw error;
  }
}

/** Imports a provider definition; the adapter's complaints come back as issues, never thrown. */
export function toolFromWire(
  format: Provider,
  definition: unknown,
): { ok: true; ir: ToolIR } | { ok: false; issues: Issue[] } {
  try {
    return { ok: true, ir: getAdapter(format).toolFromWire(definition) };
  } catch (error) {
    if (!ToolgateError.isInstance(error)) throw error;
    const details = error.details as { issues?: Issue[] } | undefined;
    return { ok: false, issues: details?.issues ?? [{ path: '/', message: error.message }] };
  }
}
