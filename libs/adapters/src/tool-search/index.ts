export { parseToolSearches } from './parse-tool-searches';
export {
  clientToolSearchTool,
  supportsToolSearch,
  toolSearchOutputToWire,
} from './tool-search-wire';
export type {
  ParsedToolSearches,
  ToolSearchCallIR,
  ToolSearchExecution,
  ToolSearchResultIR,
} from './tool-search-ir';
