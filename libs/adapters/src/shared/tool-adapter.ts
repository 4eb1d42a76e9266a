import type { ToolCallIR, ToolIR, ToolResultIR } from '@toolgate/toolir';
import type { InvalidToolArgumentsError } from './adapter-error';
import type { DowngradeReport, NameMapping } from './downgrade-report';
import type { SchemaLimits } from './json-schema/schema-limits';
import type { Provider } from './provider';

/** How tool definitions are written for a request. */
export interface ToolsToWireOptions {
  /** Ask the provider to enforce the schema exactly (OpenAI `strict`, Anthropic `strict`); sent explicitly either way. */
  strict?: boolean;
  /** Whether the model may call several tools in one turn; becomes a request-level field where the wire has one. */
  parallelCalls?: boolean;
  /** OpenAI schema limits to check against (defaults: the current documented limits). */
  limits?: Partial<SchemaLimits>;
  /** Gemini: `openapi` (the `parameters` subset, default) or `jsonschema` (`parametersJsonSchema`). */
  schemaMode?: 'openapi' | 'jsonschema';
  /** Gemini `openapi` mode: how often a recursive `$ref` is expanded before it is cut (default 1). */
  maxRecursion?: number;
  /**
   * Send tools for deferred loading (`defer_loading: true`): the model sees only their names until
   * a tool search loads them. `true` defers every tool; a function defers the tools it returns true
   * for (keep the few used on most turns loaded). Formats without deferred loading report it and
   * send every tool loaded.
   */
  deferLoading?: boolean | ((tool: ToolIR) => boolean);
  /**
   * With deferred tools: `server` (default) adds the provider's own tool search tool in front of
   * the tools; `none` adds none (the request brings its own, e.g. a client-executed search).
   */
  toolSearch?: 'server' | 'none';
}

/** The request's tool definitions, one definition per ToolIR, and what could not be carried. */
export interface ToolsToWireResult<TTool, TDefinition, TRequestOptions> {
  /** The request's `tools` field. */
  tools: TTool[];
  /** One wire definition per input tool, in order (for Gemini: the function declarations). */
  definitions: TDefinition[];
  /** Request-level fields to spread into the request, e.g. `parallel_tool_calls` or `tool_choice`. */
  requestOptions: TRequestOptions;
  report: DowngradeReport;
}

/** How a provider tool definition is imported. */
export interface ToolFromWireOptions {
  /** The report's name map: restores the original name of a mangled wire name. */
  names?: readonly NameMapping[];
}

/** What helps to read calls: with the tools, wire names map back and strict-mode nulls are undone. */
export interface CallsFromWireOptions {
  tools?: readonly ToolIR[];
}

/** What helps to read results: the calls they answer (for names and for Gemini results without ids). */
export interface ResultsFromWireOptions {
  tools?: readonly ToolIR[];
  calls?: readonly ToolCallIR[];
}

/**
 * What helps to write results: the calls they answer, or the tools, say which answer a free-text
 * call (OpenAI Responses answers those with `custom_tool_call_output`).
 */
export interface ResultsToWireOptions {
  calls?: readonly ToolCallIR[];
  tools?: readonly ToolIR[];
}

/** Calls read from a payload: the good ones, and one error per call whose arguments were not a JSON object. */
export interface ParsedToolCalls {
  calls: ToolCallIR[];
  /** Each carries the raw argument text, for an `invalid_arguments` result to the model. */
  errors: InvalidToolArgumentsError[];
  /**
   * Ids of calls the wire sent without one (Gemini, bare MCP params), made up from the call itself:
   * the same turn gets the same ids, so two requests with an equal call share its id. Absent when
   * every id came from the wire.
   */
  synthesizedIds?: string[];
}

/** One wire format's tool calling, both ways: definitions, calls and results. */
export interface ToolAdapter<
  TTool = unknown,
  TDefinition = unknown,
  TRequestOptions extends object = object,
  TCallsWire = unknown,
  TResultsWire = unknown,
> {
  readonly provider: Provider;
  /** The request's tool definitions, with a report of every schema change the wire forced. */
  toolsToWire(
    tools: readonly ToolIR[],
    options?: ToolsToWireOptions,
  ): ToolsToWireResult<TTool, TDefinition, TRequestOptions>;
  /** Imports one provider tool definition as a ToolIR (conservative behavior defaults). */
  toolFromWire(wire: unknown, options?: ToolFromWireOptions): ToolIR;
  /** Every tool call in a whole response, a message or a content array; throws on the first unparseable arguments. */
  callsFromWire(payload: unknown, options?: CallsFromWireOptions): ToolCallIR[];
  /** Like `callsFromWire`, but calls with unparseable arguments come back as errors beside the good calls. */
  parseCalls(payload: unknown, options?: CallsFromWireOptions): ParsedToolCalls;
  /** The assistant turn that carries the calls (for replaying a conversation). */
  callsToWire(calls: readonly ToolCallIR[]): TCallsWire;
  /** What the app appends to the conversation after running the calls. */
  resultsToWire(results: readonly ToolResultIR[], options?: ResultsToWireOptions): TResultsWire;
  /** Reads results back from what `resultsToWire` (or the provider's own format) produced. */
  resultsFromWire(payload: unknown, options?: ResultsFromWireOptions): ToolResultIR[];
}
