import {
  parseToolIR,
  ToolIRError,
  type JsonSchema,
  type ToolBehavior,
  type ToolInputFormat,
  type ToolIR,
} from '@toolgate/toolir';
import { AdapterError } from './adapter-error';
import type { NameMapping } from './downgrade-report';
import type { Provider } from './provider';
import { stableHash } from './stable-hash';

/**
 * Behavior of an imported tool that says nothing about its effects: assume the worst (MCP's own
 * defaults: not read-only, destructive, not idempotent, open world), so the gateway asks for
 * approval and never retries it until someone says otherwise.
 */
export const CONSERVATIVE_BEHAVIOR: Pick<
  ToolBehavior,
  'readonly' | 'destructive' | 'idempotent' | 'open_world'
> = {
  readonly: false,
  destructive: true,
  idempotent: false,
  open_world: true,
};

/** The timeout given to an imported tool until its owner sets one. */
export const IMPORTED_TIMEOUT_MS = 30_000;

/** A deterministic RFC 9562 version-8 UUID derived from a tool name: importing twice gives the same id. */
export function toolIdFromName(name: string): string {
  const hex = (stableHash(`toolgate:tool:${name}`) + stableHash(`toolgate:tool:${name}:2`)).split(
    '',
  );
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20, 32)}`;
}

/** The fields a wire definition provides; the rest of the ToolIR gets defaults. */
export interface ImportedToolFields {
  wireName: string;
  description: string;
  parameters: JsonSchema;
  /** A custom tool's free-text input (OpenAI wires). */
  input_format?: ToolInputFormat;
  title?: string;
  outputSchema?: JsonSchema;
  behavior?: Partial<ToolBehavior>;
  provider_hints?: Record<string, Record<string, unknown>>;
  protocol_meta?: Record<string, unknown>;
}

/** Builds a validated ToolIR from an imported definition; an invalid one becomes an AdapterError. */
export function buildImportedTool(
  fields: ImportedToolFields,
  context: { provider: Provider; names?: readonly NameMapping[] | undefined },
): ToolIR {
  const name =
    context.names?.find((mapping) => mapping.wireName === fields.wireName)?.name ?? fields.wireName;
  try {
    return parseToolIR({
      schema_version: '1.0',
      id: toolIdFromName(name),
      name,
      version: '1.0.0',
      description: fields.description,
      parameters: fields.parameters,
      behavior: { ...CONSERVATIVE_BEHAVIOR, ...fields.behavior },
      constraints: { timeout_ms: IMPORTED_TIMEOUT_MS },
      ...(fields.title === undefined ? {} : { title: fields.title }),
      ...(fields.input_format === undefined ? {} : { input_format: fields.input_format }),
      ...(fields.outputSchema === undefined ? {} : { outputSchema: fields.outputSchema }),
      ...(fields.provider_hints === undefined ? {} : { provider_hints: fields.provider_hints }),
      ...(fields.protocol_meta === undefined ? {} : { protocol_meta: fields.protocol_meta }),
    });
  } catch (error) {
    if (error instanceof ToolIRError) {
      const first = error.issues[0];
      throw new AdapterError(
        `not a valid tool: ${error.message}`,
        { provider: context.provider, path: first?.path ?? '/', issues: error.issues },
        { cause: error },
      );
    }
    throw error;
  }
}
