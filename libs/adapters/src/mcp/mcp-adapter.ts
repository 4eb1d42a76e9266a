import { throwFirstArgumentsError } from '../shared/call-context';
import type { ToolAdapter } from '../shared/tool-adapter';
import type {
  McpCallToolRequest,
  McpCallToolResponse,
  McpRequestOptions,
  McpTool,
} from './mcp-api';
import { convertCallsToMcp } from './convert-calls-to-mcp';
import { convertResultsToMcp } from './convert-results-to-mcp';
import { convertToolFromMcp } from './convert-tool-from-mcp';
import { convertToolsToMcp } from './convert-tools-to-mcp';
import { parseMcpToolCalls } from './parse-mcp-tool-calls';
import { parseMcpToolResults } from './parse-mcp-tool-results';

/** The MCP adapter (spec 2025-11-25). */
export type McpAdapter = ToolAdapter<
  McpTool,
  McpTool,
  McpRequestOptions,
  McpCallToolRequest[],
  McpCallToolResponse[]
>;

/** Tool calling over MCP (`Tool`, `tools/call`, `CallToolResult`). */
export const mcpAdapter: McpAdapter = {
  provider: 'mcp',
  toolsToWire: convertToolsToMcp,
  toolFromWire: convertToolFromMcp,
  parseCalls: parseMcpToolCalls,
  callsFromWire: (payload, options) =>
    throwFirstArgumentsError(parseMcpToolCalls(payload, options)),
  callsToWire: convertCallsToMcp,
  resultsToWire: convertResultsToMcp,
  resultsFromWire: parseMcpToolResults,
};
