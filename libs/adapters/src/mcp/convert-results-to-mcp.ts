import { isRecord } from '@toolgate/toolir';
import type { ToolResultIR } from '@toolgate/toolir';
import { dataToText, errorToText } from '../shared/result-text';

import type { McpCallToolResponse, McpCallToolResult } from './mcp-api';

/** The `_meta` key that marks a result cut to fit a budget. */
export const MCP_TRUNCATED_META_KEY = 'dev.toolgate/truncated';

/**
 * A `CallToolResult` for one result: failures are `isError: true` with the JSON error text (tool
 * errors belong in the result, "not as an MCP protocol-level error response"); object data is
 * `structuredContent` plus, as the spec SHOULDs, its serialized JSON in a text block. The result's
 * own `_meta` (the gateway's notes, such as a spent soft budget) is the CallToolResult's `_meta`.
 */
export function convertResultToMcp(result: ToolResultIR): McpCallToolResult {
  const fields = {
    ...result._meta,
    ...(result.truncated === undefined ? {} : { [MCP_TRUNCATED_META_KEY]: result.truncated }),
  };
  const meta = Object.keys(fields).length === 0 ? {} : { _meta: fields };
  if (!result.ok && result.error !== undefined) {
    return {
      content: [{ type: 'text', text: errorToText(result.error) }, ...(result.content ?? [])],
      isError: true,
      ...meta,
    };
  }
  const content =
    result.content ??
    (result.data === undefined ? [] : [{ type: 'text' as const, text: dataToText(result.data) }]);
  return {
    content,
    ...(isRecord(result.data) ? { structuredContent: result.data } : {}),
    isError: false,
    ...meta,
  };
}

/** One JSON-RPC response per result, answering the request whose id is the call id. */
export function convertResultsToMcp(results: readonly ToolResultIR[]): McpCallToolResponse[] {
  return results.map((result) => ({
    jsonrpc: '2.0',
    id: result.call_id,
    result: convertResultToMcp(result),
  }));
}
