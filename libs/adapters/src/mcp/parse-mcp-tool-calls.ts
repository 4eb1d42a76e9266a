import { isRecord } from '@toolgate/toolir';
import { callLookup, lookUpTool, makeCall } from '../shared/call-context';
import { synthesizeCallId } from '../shared/synthesize-call-id';
import type { CallsFromWireOptions, ParsedToolCalls } from '../shared/tool-adapter';
import { joinPointer, parseWire, unknownShape } from '../shared/wire-boundary';
import { McpCallToolParamsSchema, McpCallToolRequestSchema } from './mcp-api';

/**
 * Reads `tools/call` requests (one, a JSON-RPC batch, or bare `params`): the JSON-RPC id becomes
 * the call id (as a string); params without a request get `synthesizeCallId`.
 */
export function parseMcpToolCalls(
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolCalls {
  const items = Array.isArray(payload) ? payload : [payload];
  if (!Array.isArray(payload) && !isRecord(payload))
    unknownShape({ provider: 'mcp', path: '/' }, 'a tools/call request, a batch or params');
  const lookup = callLookup('mcp', options);
  const synthesizedIds: string[] = [];
  const calls = items.map((item, ordinal) => {
    const path = Array.isArray(payload) ? joinPointer('', ordinal) : '/';
    const isRequest = isRecord(item) && 'method' in item;
    const params = isRequest
      ? parseWire(McpCallToolRequestSchema, item, { provider: 'mcp', path })
      : {
          id: undefined,
          params: parseWire(McpCallToolParamsSchema, item, { provider: 'mcp', path }),
        };
    const args = params.params.arguments ?? {};
    let id: string;
    if (params.id === undefined) {
      id = synthesizeCallId({ name: params.params.name, ordinal, arguments: args });
      synthesizedIds.push(id);
    } else id = String(params.id);
    return makeCall({ id, name: lookUpTool(params.params.name, lookup).name, arguments: args });
  });
  return { calls, errors: [], ...(synthesizedIds.length === 0 ? {} : { synthesizedIds }) };
}
