import { fromWireName } from '../shared/names/tool-name-map';
import { toolLookup } from '../shared/call-context';
import type { CallsFromWireOptions } from '../shared/tool-adapter';
import { joinPointer, parseWire } from '../shared/wire-boundary';
import {
  OpenAIResponsesItemSchema,
  OpenAIResponsesToolSearchCallSchema,
  OpenAIResponsesToolSearchOutputSchema,
} from '../openai-responses/openai-responses-api';
import { locateOpenAIResponsesItems } from '../openai-responses/parse-openai-responses-tool-calls';
import { searchArguments, searchQuery } from './search-arguments';
import type { ParsedToolSearches } from './tool-search-ir';

/**
 * Reads `tool_search_call` and `tool_search_output` items (other known items skipped, unknown
 * ones rejected). A search without `execution` is a server one, as the API defaults it.
 */
export function parseOpenAIResponsesToolSearches(
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolSearches {
  const names = toolLookup('openai-responses', options.tools).names;
  const parsed: ParsedToolSearches = { calls: [], results: [] };
  for (const { item, path } of locateOpenAIResponsesItems(payload)) {
    const location = { provider: 'openai-responses' as const, path };
    const type = parseWire(OpenAIResponsesItemSchema, item, location).type;
    if (type === 'tool_search_call') {
      const call = parseWire(OpenAIResponsesToolSearchCallSchema, item, location);
      const args = searchArguments(call.arguments, {
        ...location,
        path: joinPointer(path, 'arguments'),
      });
      parsed.calls.push({
        id: call.call_id ?? null,
        execution: call.execution ?? 'server',
        arguments: args,
        query: searchQuery(args),
      });
    } else if (type === 'tool_search_output') {
      const output = parseWire(OpenAIResponsesToolSearchOutputSchema, item, location);
      parsed.results.push({
        callId: output.call_id ?? null,
        execution: output.execution ?? 'server',
        // Loaded function tools by name; namespaces and hosted tools have none to map back.
        tools: output.tools.flatMap((tool) =>
          tool.type === 'function' && tool.name !== undefined
            ? [fromWireName(tool.name, names)]
            : [],
        ),
      });
    }
  }
  return parsed;
}
