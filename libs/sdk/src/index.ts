export { Toolgate } from './toolgate-client';
export type {
  ToolgateOptions,
  ToolgateLogger,
  ToolsQuery,
  ToolExport,
  ExecuteOptions,
  ExecuteResult,
} from './toolgate-client';
export type { CallEvent, KnownCallEvent, UnknownCallEvent } from './transports/call-events';
export {
  ToolgateSdkError,
  ToolgateApiError,
  ToolgateNetworkError,
  ToolgateTimeoutError,
  ToolgateInvalidResponseError,
  type ToolgateSdkErrorCode,
  type ToolgateSdkErrorOptions,
  type ProblemFields,
  type ProblemIssue,
} from './errors/toolgate-sdk-error';
export { DEFAULT_RETRY, type RetryOptions } from './transports/retry-policy';
export type { FetchFunction, SleepFunction } from './transports/http-transport';
export type { DeprecationNotice, DeprecationHandler } from './transports/deprecation-notices';
export type { WireToolByProvider, WireResultsByProvider } from './transports/wire-types';
export { SUBJECT_HEADER } from './transports/http-transport';
// The gateway's answers as the contract defines them, so SDK users need no second import for them.
export {
  PROBLEM_MEDIA_TYPE,
  ProblemSchema,
  ExportSchema,
  ExportToolResolutionSchema,
  ExportSkippedToolSchema,
  CallSummarySchema,
  CallsCompletedSchema,
  CallsAcceptedSchema,
  CallFinishedEventSchema,
  CallStreamEventSchemas,
  type Problem,
  type ExportBody,
  type ExportToolResolution,
  type ExportSkippedTool,
  type DowngradeReport,
  type Call,
  type CallStatus,
  type CallSummary,
  type CallDeprecationNotice,
  type CallsCompleted,
  type CallsAccepted,
  type CallFinishedEvent,
  type CallStreamEventName,
  type CreateCallsRequest,
} from '@toolgate/contract';
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
