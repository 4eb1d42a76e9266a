export { Toolgate } from './toolgate-client';
export type {
  ToolgateOptions,
  ToolgateLogger,
  ToolsQuery,
  ToolExport,
  ExecuteOptions,
  ExecuteResult,
  CallEvent,
} from './toolgate-client';
export {
  ToolgateSdkError,
  ToolgateApiError,
  ToolgateNetworkError,
  ToolgateTimeoutError,
  ToolgateInvalidResponseError,
  TOOLGATE_SDK_ERROR_CODES,
  type ToolgateSdkErrorCode,
  type ToolgateSdkErrorOptions,
  type ProblemFields,
  type ProblemIssue,
} from './errors/toolgate-sdk-error';
export { DEFAULT_RETRY, type RetryOptions } from './transports/retry-policy';
export type { FetchFunction, SleepFunction } from './transports/http-transport';
export type { DeprecationNotice, DeprecationHandler } from './transports/deprecation-notices';
export type { WireToolByProvider, WireResultsByProvider } from './transports/wire-types';
export {
  CALL_EVENT_TYPES,
  PROBLEM_MEDIA_TYPE,
  SUBJECT_HEADER,
  ProblemDocumentSchema,
  ToolResolutionSchema,
  ExportsResponseSchema,
  CallRecordSchema,
  CallsCompletedResponseSchema,
  CallsAcceptedResponseSchema,
  CallFinishedDataSchema,
  type CallEventType,
  type CallRecord,
  type CallsCompletedResponse,
  type CallsAcceptedResponse,
  type CallFinishedData,
  type CreateCallsRequest,
  type ProblemDocument,
  type ToolResolution,
  type ExportsResponse,
} from './transports/gateway-contract';
export {
  localTools,
  type LocalTools,
  type LocalToolDefinition,
  type ToolExecutor,
  type ToolExecutionContext,
} from './local-tools';
export {
  runToolLoop,
  type ToolLoopOptions,
  type GatewayToolLoopOptions,
  type ToolLoopTarget,
  type ToolLoopSettings,
  type ToolLoopResult,
  type ToolLoopStep,
  type OpenAIChatLoopClient,
  type OpenAIResponsesLoopClient,
  type AnthropicLoopClient,
  type GeminiLoopClient,
} from './agent-loop';
export { streamToolCalls, type StreamToolCallsOptions } from './stream/stream-tool-calls';
