import { isRecord } from '@toolgate/toolir';
import type { ToolResultIR } from '@toolgate/toolir';
import { makeResult, resultName } from '../shared/call-context';
import { dataToText, textToError } from '../shared/result-text';
import type { ResultsFromWireOptions } from '../shared/tool-adapter';
import { joinPointer, parseWire, unknownShape } from '../shared/wire-boundary';
import {
  McpCallToolResultSchema,
  McpErrorResponseSchema,
  McpResultResponseSchema,
} from './mcp-api';
import { MCP_TRUNCATED_META_KEY } from './convert-results-to-mcp';

/**
 * Reads `tools/call` responses (one, a batch, or a bare `CallToolResult` matched to the calls by
 * position) back into results; a JSON-RPC error becomes an `upstream_error` result.
 */
export function parseMcpToolResults(
  payload: unknown,
  options: ResultsFromWireOptions = {},
): ToolResultIR[] {
  const items = Array.isArray(payload) ? payload : [payload];
  if (!Array.isArray(payload) && !isRecord(payload))
    unknownShape(
      { provider: 'mcp', path: '/' },
      'a JSON-RPC response, a batch or a CallToolResult',
    );
  return items.map((item, index) => {
    const path = Array.isArray(payload) ? joinPointer('', index) : '';
    if (isRecord(item) && !('result' in item) && !('error' in item)) {
      const callId = options.calls?.[index]?.id ?? `unmatched:${index}`;
      return fromCallToolResult(item, { callId, path, options });
    }
    if (isRecord(item) && 'error' in item && !('result' in item)) {
      const failure = parseWire(McpErrorResponseSchema, item, {
        provider: 'mcp',
        path: path || '/',
      });
      const callId =
        failure.id === undefined || failure.id === null ? `unmatched:${index}` : String(failure.id);
      return makeResult({
        call_id: callId,
        name: resultName(callId, undefined, { provider: 'mcp', options }),
        ok: false,
        error: {
          code: 'upstream_error',
          message: failure.error.message,
          retryable: false,
          details: { jsonrpc_code: failure.error.code },
        },
      });
    }
    const response = parseWire(McpResultResponseSchema, item, {
      provider: 'mcp',
      path: path || '/',
    });
    const callId = String(response.id);
    return fromCallToolResult(response.result, {
      callId,
      path: joinPointer(path, 'result'),
      options,
    });
  });
}

function fromCallToolResult(
  value: unknown,
  context: { callId: string; path: string; options: ResultsFromWireOptions },
): ToolResultIR {
  const result = parseWire(McpCallToolResultSchema, value, {
    provider: 'mcp',
    path: context.path || '/',
  });
  const meta = isRecord(result['_meta']) ? result['_meta'] : {};
  const truncated =
    typeof meta[MCP_TRUNCATED_META_KEY] === 'boolean' ? meta[MCP_TRUNCATED_META_KEY] : undefined;
  const base = {
    call_id: context.callId,
    name: resultName(context.callId, undefined, { provider: 'mcp', options: context.options }),
    ...(truncated === undefined ? {} : { truncated }),
  };
  if (result.isError === true) {
    const [first, ...rest] = result.content;
    const text = first?.type === 'text' ? first.text : '';
    return makeResult({
      ...base,
      ok: false,
      error: textToError(text),
      ...(rest.length > 0 ? { content: rest } : {}),
    });
  }
  const data = result.structuredContent;
  const only = result.content.length === 1 ? result.content[0] : undefined;
  const duplicate = data !== undefined && only?.type === 'text' && only.text === dataToText(data);
  return makeResult({
    ...base,
    ok: true,
    ...(data === undefined ? {} : { data }),
    ...(duplicate || (data !== undefined && result.content.length === 0)
      ? {}
      : { content: result.content }),
  });
}
