import {
  clientToolSearchTool,
  getAdapter,
  parseToolSearches,
  toolSearchOutputToWire,
  type OpenAIResponsesToolSearchOutput,
  type OpenAIResponsesToolSearchTool,
  type Provider,
} from '@toolgate/adapters';
import {
  DEFAULT_SEARCH_TOOL_RESULTS,
  parseSearchToolArguments,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_NAME,
  SEARCH_TOOL_PARAMETERS,
  searchToolIR,
} from '@toolgate/contract';
import type { ToolResultIR } from '@toolgate/toolir';
import type { ToolExport, ToolsQuery } from '../toolgate-client';
import type { WireResultsByProvider, WireToolByProvider } from '../transports/wire-types';

/** The search tool's definition in each format: Responses has a tool type of its own for it. */
export type SearchToolDefinition<TProvider extends Provider> = TProvider extends 'openai-responses'
  ? OpenAIResponsesToolSearchTool
  : WireToolByProvider[TProvider];

/** What answers the model's searches in each format. */
export type SearchOutput<TProvider extends Provider> = TProvider extends 'openai-responses'
  ? OpenAIResponsesToolSearchOutput[]
  : WireResultsByProvider[TProvider];

/** Which tools a search may find, and how many by default. */
export interface ToolSearchOptions<TProvider extends Provider> {
  format: TProvider;
  /** Only tools carrying every one of these tags are found. */
  tags?: readonly string[];
  /** Tools per search when the model does not ask for a number (default 5, at most 20). */
  limit?: number;
  signal?: AbortSignal;
}

/** One search the model made and what it found. */
export interface ToolSearchRecord {
  callId: string;
  query: string;
  /** The found tools' registry names, best first. */
  found: string[];
  /** How many tools match in all. */
  total: number;
  /** Set when the search could not run (bad arguments); the model is told what to send instead. */
  error?: string;
}

/** The answer to one model turn's searches. */
export interface ToolSearchAnswer<TProvider extends Provider> {
  /**
   * What to append to the conversation after the model's turn: `tool_search_output` items
   * (Responses), else the search calls' tool results in the format's result shape.
   */
  output: SearchOutput<TProvider>;
  /**
   * The found tools' definitions. Add them to the next request's `tools` (Responses: the output
   * already loads them). The client remembers their export, so `versionsOf(tools)` and the loop
   * run each call at the version the model was shown.
   */
  tools: Array<WireToolByProvider[TProvider]>;
  /**
   * The answers as tool results, one per search call (`output` is these in the format's result
   * shape); empty on Responses, whose searches are not function calls.
   */
  toolResults: ToolResultIR[];
  searches: ToolSearchRecord[];
}

/** What the tool loop needs of a tool search, whatever its format. */
export interface LoopToolSearch {
  asks(payload: unknown): boolean;
  answer(payload: unknown): Promise<{
    output: unknown;
    tools: unknown[];
    toolResults: ToolResultIR[];
  }>;
}

/** The registry's export, as far as a search needs it. */
export type ToolSearchSource = {
  tools<TProvider extends Provider>(query: ToolsQuery<TProvider>): Promise<ToolExport<TProvider>>;
};

interface SearchCall {
  id: string;
  arguments: unknown;
}

/**
 * A tool search tool for a model that cannot be shown the whole catalog: the model asks for tools
 * by what they do, and the gateway answers with the best matches' definitions in this format,
 * under the caller's key (its team's tools and public ones, each at the version it gets).
 * On Responses it is a client-executed `tool_search`; elsewhere a function tool named
 * `toolgate_search_tools`.
 */
export class ToolSearch<TProvider extends Provider> {
  /** Put it in the request's `tools`, beside any tools the model should always have. */
  readonly definition: SearchToolDefinition<TProvider>;

  constructor(
    private readonly source: ToolSearchSource,
    private readonly options: ToolSearchOptions<TProvider>,
  ) {
    this.definition = (
      options.format === 'openai-responses'
        ? clientToolSearchTool({
            description: SEARCH_TOOL_DESCRIPTION,
            parameters: SEARCH_TOOL_PARAMETERS,
          })
        : getAdapter(options.format).toolsToWire([searchToolIR()]).tools[0]
    ) as SearchToolDefinition<TProvider>;
  }

  /** Whether the model's response holds a search to answer. */
  asks(payload: unknown): boolean {
    return this.searchCalls(payload).length > 0;
  }

  /** Runs every search of the model's response and writes the answer in this format. */
  async answer(payload: unknown): Promise<ToolSearchAnswer<TProvider>> {
    // A turn's searches run side by side; answers keep the order of the calls.
    const answered = await Promise.all(this.searchCalls(payload).map((call) => this.search(call)));
    const searches = answered.map((entry) => entry.search);
    const exports = answered.map((entry) => entry.exported);
    const tools = exports.flatMap((exported) => exported?.tools ?? []);
    if (this.options.format === 'openai-responses') {
      // The Responses export's own definitions: the names the gateway maps calls back from.
      const output = searches.map((search, index) =>
        toolSearchOutputToWire(
          search.callId,
          (exports[index]?.tools ?? []) as OpenAIResponsesToolSearchOutput['tools'],
        ),
      );
      return { output: output as SearchOutput<TProvider>, tools, toolResults: [], searches };
    }
    const toolResults = searches.map(searchResult);
    const output = getAdapter(this.options.format).resultsToWire(toolResults);
    return { output: output as SearchOutput<TProvider>, tools, toolResults, searches };
  }

  private async search(
    call: SearchCall,
  ): Promise<{ search: ToolSearchRecord; exported: ToolExport<TProvider> | null }> {
    const args = parseSearchToolArguments(call.arguments);
    if (!args.ok) {
      return {
        search: { callId: call.id, query: '', found: [], total: 0, error: args.message },
        exported: null,
      };
    }
    const exported = await this.source.tools({
      format: this.options.format,
      q: args.value.query,
      limit: args.value.limit ?? this.options.limit ?? DEFAULT_SEARCH_TOOL_RESULTS,
      ...(this.options.tags === undefined ? {} : { tags: this.options.tags }),
      ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
    });
    const search = {
      callId: call.id,
      query: args.value.query,
      found: exported.resolution.map((entry) => entry.name),
      total: exported.total,
    };
    return { search, exported };
  }

  private searchCalls(payload: unknown): SearchCall[] {
    const { format } = this.options;
    if (format === 'openai-responses') {
      return parseToolSearches(format, payload).calls.flatMap((call) =>
        call.execution === 'client' && call.id !== null
          ? [{ id: call.id, arguments: call.arguments }]
          : [],
      );
    }
    return getAdapter(format)
      .parseCalls(payload)
      .calls.filter((call) => call.name === SEARCH_TOOL_NAME)
      .map((call) => ({ id: call.id, arguments: call.arguments }));
  }
}

/** One search's answer as the result of the search tool's call. */
function searchResult(search: ToolSearchRecord): ToolResultIR {
  const base = { call_id: search.callId, name: SEARCH_TOOL_NAME };
  if (search.error !== undefined) {
    return {
      ...base,
      ok: false,
      error: { code: 'invalid_arguments', message: search.error, retryable: false },
    };
  }
  return {
    ...base,
    ok: true,
    data: {
      total: search.total,
      tools: search.found,
      note:
        search.found.length === 0
          ? 'No tool matches; try other words for what the tool should do.'
          : 'These tools are now available: call one by its name.',
    },
  };
}
