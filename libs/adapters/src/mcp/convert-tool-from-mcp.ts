import type { ToolBehavior, ToolIR } from '@toolgate/toolir';
import { buildImportedTool } from '../shared/import-tool';
import type { ToolFromWireOptions } from '../shared/tool-adapter';
import { parseWire } from '../shared/wire-boundary';
import { McpToolSchema } from './mcp-api';

/** The MCP annotation hints as read from the wire: each may be missing. */
export type McpHints = Partial<
  Record<
    'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint',
    boolean | undefined
  >
>;

/**
 * Behavior from MCP annotation hints with the spec's defaults (readOnlyHint false, destructiveHint
 * true, idempotentHint false, openWorldHint true); a read-only tool is non-destructive and idempotent.
 */
export function behaviorFromMcpAnnotations(
  hints: McpHints | undefined,
): Pick<ToolBehavior, 'readonly' | 'destructive' | 'idempotent' | 'open_world'> {
  const readonly = hints?.readOnlyHint ?? false;
  return {
    readonly,
    destructive: !readonly && (hints?.destructiveHint ?? true),
    idempotent: readonly || (hints?.idempotentHint ?? false),
    open_world: hints?.openWorldHint ?? true,
  };
}

/**
 * Imports an MCP `Tool`; the annotation hints map to behavior with the spec's defaults
 * (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true), and a
 * read-only tool is non-destructive and idempotent. `_meta`, `icons`, `execution` go to `protocol_meta`.
 */
export function convertToolFromMcp(wire: unknown, options: ToolFromWireOptions = {}): ToolIR {
  const tool = parseWire(McpToolSchema, wire, { provider: 'mcp', path: '/' });
  const hints = tool.annotations ?? {};
  const meta: Record<string, unknown> = {};
  if (tool._meta !== undefined) meta['_meta'] = tool._meta;
  if (tool.icons !== undefined) meta['icons'] = tool.icons;
  if (tool.execution !== undefined) meta['execution'] = tool.execution;
  const title = tool.title ?? hints.title;
  return buildImportedTool(
    {
      wireName: tool.name,
      description: tool.description ?? '',
      parameters: tool.inputSchema,
      ...(title === undefined ? {} : { title }),
      ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
      behavior: behaviorFromMcpAnnotations(hints),
      ...(Object.keys(meta).length > 0 ? { protocol_meta: meta } : {}),
    },
    { provider: 'mcp', names: options.names },
  );
}
