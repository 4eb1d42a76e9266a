export { PROVIDERS, isProvider, type Provider } from './shared/provider';
export { safeParseJson, type SafeParseJsonResult } from './shared/safe-parse-json';
export { synthesizeCallId, type CallIdentity } from './shared/synthesize-call-id';

export { getAdapter, type AdapterByProvider } from './get-adapter';
export type {
  ToolAdapter,
  ToolsToWireOptions,
  ToolsToWireResult,
  ToolFromWireOptions,
  CallsFromWireOptions,
  ResultsFromWireOptions,
  ResultsToWireOptions,
  ParsedToolCalls,
} from './shared/tool-adapter';
export {
  AdapterError,
  InvalidToolArgumentsError,
  type AdapterErrorCode,
  type AdapterErrorDetails,
  type InvalidToolArgumentsDetails,
} from './shared/adapter-error';
export type {
  DowngradeAction,
  DowngradeEntry,
  DowngradeReport,
  LimitViolation,
  NameMapping,
} from './shared/downgrade-report';
export type { SchemaLimits } from './shared/json-schema/schema-limits';
export {
  DEFAULT_OPENAI_LIMITS,
  PROVIDER_LIMITS,
  type ProviderLimits,
  type RequestLimits,
  type SchemaRules,
  type StrictRules,
} from './shared/provider-limits/provider-limits';
export { checkWireTools, type WireProblem } from './shared/provider-limits/check-wire-tools';
export { CONSERVATIVE_BEHAVIOR, toolIdFromName } from './shared/import-tool';
export { toWireName } from './shared/names/tool-name-map';
export { toWireCallId } from './shared/names/call-id';
export {
  invalidArgumentsResult,
  incompleteArgumentsResult,
} from './shared/invalid-arguments-result';
export {
  repairCutArguments,
  type CutArgumentsRepair,
  type CutMemberKind,
  type RepairCutArgumentsResult,
} from './repair/repair-cut-arguments';

export { openAIChatAdapter, type OpenAIChatAdapter } from './openai-chat/openai-chat-adapter';
export type {
  OpenAIChatFunctionTool,
  OpenAIChatCustomTool,
  OpenAIChatCustomToolFormat,
  OpenAIChatCustomToolCall,
  OpenAIChatTool,
  OpenAIChatToolCall,
  OpenAIChatAssistantMessage,
  OpenAIChatToolMessage,
  OpenAIChatRequestOptions,
} from './openai-chat/openai-chat-api';
export {
  openAIResponsesAdapter,
  type OpenAIResponsesAdapter,
} from './openai-responses/openai-responses-adapter';
export type {
  OpenAIResponsesFunctionTool,
  OpenAIResponsesCustomTool,
  OpenAIResponsesCustomToolFormat,
  OpenAIResponsesDefinition,
  OpenAIResponsesCustomToolCall,
  OpenAIResponsesCustomToolCallOutput,
  OpenAIResponsesCallItem,
  OpenAIResponsesCallOutput,
  OpenAIResponsesTool,
  OpenAIResponsesToolSearchTool,
  OpenAIResponsesToolSearchOutput,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesOutputPart,
  OpenAIResponsesRequestOptions,
} from './openai-responses/openai-responses-api';
export { anthropicAdapter, type AnthropicAdapter } from './anthropic/anthropic-adapter';
export type {
  AnthropicTool,
  AnthropicRequestTool,
  AnthropicToolSearchTool,
  AnthropicInputSchema,
  AnthropicCacheControl,
  AnthropicToolUseBlock,
  AnthropicAssistantMessage,
  AnthropicToolResultBlock,
  AnthropicToolResultContent,
  AnthropicToolResultMessage,
  AnthropicRequestOptions,
} from './anthropic/anthropic-api';
export { geminiAdapter, type GeminiAdapter } from './gemini/gemini-adapter';
export type { GeminiSchemaMode } from './gemini/downgrade-schema-for-gemini';
export type {
  GeminiType,
  GeminiSchema,
  GeminiFunctionDeclaration,
  GeminiTool,
  GeminiFunctionCallPart,
  GeminiModelContent,
  GeminiFunctionResponsePart,
  GeminiFunctionResponseContent,
  GeminiRequestOptions,
} from './gemini/gemini-api';
export { mcpAdapter, type McpAdapter } from './mcp/mcp-adapter';
export type {
  McpTool,
  McpToolAnnotations,
  McpCallToolRequest,
  McpCallToolResult,
  McpCallToolResponse,
  McpContentBlock,
  McpRequestOptions,
} from './mcp/mcp-api';
export { McpToolSchema } from './mcp/mcp-api';
export { behaviorFromMcpAnnotations } from './mcp/convert-tool-from-mcp';
export { convertResultToMcp } from './mcp/convert-results-to-mcp';

export {
  parseToolSearches,
  clientToolSearchTool,
  supportsToolSearch,
  toolSearchOutputToWire,
  type ParsedToolSearches,
  type ToolSearchCallIR,
  type ToolSearchExecution,
  type ToolSearchResultIR,
} from './tool-search/index';

export {
  createPartialJsonParser,
  InvalidJsonError,
  IncompleteJsonError,
  createToolCallStream,
  createOpenAIChatStreamParser,
  createOpenAIResponsesStreamParser,
  createAnthropicStreamParser,
  createGeminiStreamParser,
  parseSSE,
  StreamEventShapeError,
  type PartialJson,
  type PartialJsonParser,
  type PartialJsonParserOptions,
  type JsonCut,
  type JsonCutPoint,
  type JsonSlot,
  type OpenJsonContainer,
  isCutJson,
  type InvalidJsonDetails,
  type IncompleteJsonDetails,
  type SseJsonDecoder,
  type ToolCallStreamOptions,
  type StreamEventShapeDetails,
  type ToolCallStream,
  type ToolCallStreamEvent,
  type ToolCallStreamError,
  type ToolCallStartEvent,
  type ToolCallDeltaEvent,
  type ToolCallEndEvent,
  type TextDeltaEvent,
  type StreamErrorEvent,
} from './stream/index';

export { readTurnUsage } from './usage/read-turn-usage';
export { readOpenAIChatUsage } from './usage/openai-chat-usage';
export { readOpenAIResponsesUsage } from './usage/openai-responses-usage';
export { readAnthropicUsage } from './usage/anthropic-usage';
export { readGeminiUsage } from './usage/gemini-usage';
export type { TokenUsage, TurnUsage } from './usage/token-usage';
export { splitTurnTokens, type TurnCallWeight } from './usage/split-turn-tokens';
export {
  priceKeysOf,
  priceTokens,
  pricingProviderOf,
  type PricingProvider,
  type TokenPrices,
} from './usage/price-tokens';
