import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  parseSearchToolArguments,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_NAME,
  SEARCH_TOOL_PARAMETERS,
  type SearchToolArguments,
} from '@toolgate/contract';
import type { McpTool } from './mcp-catalog.service';

/**
 * Tools a session keeps listed from its searches; past it the oldest found are dropped from the
 * list (they stay callable), so a long session cannot grow its listing without bound.
 */
export const MAX_LOADED_TOOLS = 100;

/** The tool search tool as MCP clients list it. */
export const SEARCH_TOOL: McpTool = {
  name: SEARCH_TOOL_NAME,
  title: 'Search tools',
  description: SEARCH_TOOL_DESCRIPTION,
  inputSchema: SEARCH_TOOL_PARAMETERS,
  outputSchema: {
    type: 'object',
    properties: {
      tools: {
        type: 'array',
        description: 'The matching tools, best first, as tools/list shows them.',
        items: { type: 'object' },
      },
      total: { type: 'integer', description: 'How many tools match in all.' },
    },
    required: ['tools', 'total'],
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/** The model's arguments, or an `isError` result telling it what to send instead. */
export function parseSearchArguments(
  args: Record<string, unknown>,
): { ok: true; value: SearchToolArguments } | { ok: false; result: CallToolResult } {
  const parsed = parseSearchToolArguments(args);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    result: { isError: true, content: [{ type: 'text', text: parsed.message }] },
  };
}

/** The answer to a search: the definitions for clients that read structured content, a list for models. */
export function searchResult(
  found: { tools: McpTool[]; total: number },
  query: string,
): CallToolResult {
  const lines = found.tools.map((tool) => `- ${tool.name}: ${tool.description ?? ''}`.trimEnd());
  const text =
    found.tools.length === 0
      ? `No tool matches "${query}". Try other words for what the tool should do.`
      : [
          `${found.total} tool${found.total === 1 ? '' : 's'} match "${query}"; the best ${found.tools.length}:`,
          ...lines,
          'Call one by its name.',
        ].join('\n');
  return {
    content: [{ type: 'text', text }],
    structuredContent: { tools: found.tools, total: found.total },
  };
}

/**
 * The tools a session's searches found, which its `tools/list` shows after the search tool: at
 * most MAX_LOADED_TOOLS, the oldest found dropped first (they stay callable by name).
 */
export class FoundTools {
  private readonly found: string[] = [];

  get names(): readonly string[] {
    return this.found;
  }

  /** Adds what a search found; true when the listing changed (for `list_changed`). */
  add(names: readonly string[]): boolean {
    const fresh = names.filter((name) => !this.found.includes(name));
    if (fresh.length === 0) return false;
    this.found.push(...fresh);
    if (this.found.length > MAX_LOADED_TOOLS) {
      this.found.splice(0, this.found.length - MAX_LOADED_TOOLS);
    }
    return true;
  }
}
