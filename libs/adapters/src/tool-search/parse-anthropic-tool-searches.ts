import { isRecord } from '@toolgate/toolir';
import { fromWireName } from '../shared/names/tool-name-map';
import { toolLookup } from '../shared/call-context';
import type { CallsFromWireOptions } from '../shared/tool-adapter';
import { joinPointer, parseWire } from '../shared/wire-boundary';
import {
  AnthropicBlockSchema,
  AnthropicServerToolUseBlockSchema,
  AnthropicToolResultBlockSchema,
  AnthropicToolSearchResultBlockSchema,
} from '../anthropic/anthropic-api';
import { locateAnthropicBlocks } from '../anthropic/parse-anthropic-tool-calls';
import { searchArguments, searchQuery } from './search-arguments';
import type { ParsedToolSearches } from './tool-search-ir';

/** The server tool searches: a `server_tool_use` naming one is a search, not a call. */
const SERVER_SEARCH_TOOLS = new Set(['tool_search_tool_bm25', 'tool_search_tool_regex']);

/**
 * Reads the tool searches of Anthropic content: `server_tool_use` blocks of the BM25 or regex
 * search and their `tool_search_tool_result`s, and `tool_result`s that load tools by
 * `tool_reference` (what a search tool of the app's own answers with). Other blocks are skipped.
 */
export function parseAnthropicToolSearches(
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolSearches {
  const names = toolLookup('anthropic', options.tools).names;
  const parsed: ParsedToolSearches = { calls: [], results: [] };
  for (const { block, path } of locateAnthropicBlocks(payload)) {
    const location = { provider: 'anthropic' as const, path };
    const type = parseWire(AnthropicBlockSchema, block, location).type;
    if (type === 'server_tool_use') {
      const use = parseWire(AnthropicServerToolUseBlockSchema, block, location);
      if (!SERVER_SEARCH_TOOLS.has(use.name)) continue;
      const args = searchArguments(use.input, { ...location, path: joinPointer(path, 'input') });
      parsed.calls.push({
        id: use.id,
        execution: 'server',
        arguments: args,
        query: searchQuery(args),
      });
    } else if (type === 'tool_search_tool_result') {
      const result = parseWire(AnthropicToolSearchResultBlockSchema, block, location);
      const content = result.content;
      parsed.results.push(
        content.type === 'tool_search_tool_search_result'
          ? {
              callId: result.tool_use_id,
              execution: 'server',
              tools: content.tool_references.map((ref) => fromWireName(ref.tool_name, names)),
            }
          : {
              callId: result.tool_use_id,
              execution: 'server',
              tools: [],
              error: { code: content.error_code, message: content.error_message ?? null },
            },
      );
    } else if (type === 'tool_result' && referencesTools(block)) {
      const result = parseWire(AnthropicToolResultBlockSchema, block, location);
      parsed.results.push({
        callId: result.tool_use_id,
        execution: 'client',
        tools: (Array.isArray(result.content) ? result.content : []).flatMap((part) =>
          part.type === 'tool_reference' && part.tool_name !== undefined
            ? [fromWireName(part.tool_name, names)]
            : [],
        ),
      });
    }
  }
  return parsed;
}

function referencesTools(block: unknown): boolean {
  const content = isRecord(block) ? block['content'] : undefined;
  return (
    Array.isArray(content) &&
    content.some((part) => isRecord(part) && part['type'] === 'tool_reference')
  );
}
