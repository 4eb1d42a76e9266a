export {
  createPartialJsonParser,
  type PartialJson,
  type PartialJsonParser,
  type PartialJsonParserOptions,
  type JsonCut,
  type JsonCutPoint,
  type JsonSlot,
  type OpenJsonContainer,
} from './partial-json-parser';
export { isCutJson } from './is-cut-json';
export {
  InvalidJsonError,
  IncompleteJsonError,
  type InvalidJsonDetails,
  type IncompleteJsonDetails,
} from './partial-json-errors';
export { createToolCallStream } from './create-tool-call-stream';
export { createOpenAIChatStreamParser } from './openai-chat-stream-parser';
export { createOpenAIResponsesStreamParser } from './openai-responses-stream-parser';
export { createAnthropicStreamParser } from './anthropic-stream-parser';
export { createGeminiStreamParser } from './gemini-stream-parser';
export { parseSSE, type SseJsonDecoder } from './parse-sse';
export type { ToolCallStreamOptions } from './streamed-tool-call';
export { StreamEventShapeError, type StreamEventShapeDetails } from './stream-event-shape';
export type {
  ToolCallStream,
  ToolCallStreamEvent,
  ToolCallStreamError,
  ToolCallStartEvent,
  ToolCallDeltaEvent,
  ToolCallEndEvent,
  TextDeltaEvent,
  StreamErrorEvent,
} from './tool-call-stream-event';
