/** Who ran a tool search: the provider over the request's deferred tools, or the app. */
export type ToolSearchExecution = 'server' | 'client';

/** A tool search the model made, in any format that has one. */
export interface ToolSearchCallIR {
  /**
   * The id a result answers: Responses' `call_id` (null for a server search, which has none),
   * Anthropic's `server_tool_use` id.
   */
  id: string | null;
  execution: ToolSearchExecution;
  /** What the model searched with, as a JSON object. */
  arguments: Record<string, unknown>;
  /** The search text when the arguments carry one (`query`, or a regex search's `pattern`). */
  query: string | null;
}

/** The tools a search loaded (or why it failed), by ToolIR name when the tools were given. */
export interface ToolSearchResultIR {
  /** The search it answers (null for a Responses server search). */
  callId: string | null;
  execution: ToolSearchExecution;
  /** The loaded tools, in the order they were returned. */
  tools: string[];
  /** Set when the search failed (Anthropic's `tool_search_tool_result_error`). */
  error?: { code: string; message: string | null };
}

/** Every tool search of a payload and every answer to one. */
export interface ParsedToolSearches {
  calls: ToolSearchCallIR[];
  results: ToolSearchResultIR[];
}
