import type { ToolCallIR } from '@toolgate/toolir';
import { toWireName } from '../shared/names/tool-name-map';
import type { McpCallToolRequest } from './mcp-api';

/** One `tools/call` JSON-RPC request per call, the call id as the request id. */
export function convertCallsToMcp(calls: readonly ToolCallIR[]): McpCallToolRequest[] {
  return calls.map((call) => ({
    jsonrpc: '2.0',
    id: call.provider_call_id ?? call.id,
    method: 'tools/call',
    params: { name: toWireName(call.name, 'mcp'), arguments: call.arguments },
  }));
}
