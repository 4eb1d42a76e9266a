export { Toolgate } from './toolgate-client';
export type {
  ToolgateOptions,
  ToolgateLogger,
  ToolDefinition,
  ToolDefinitionsQuery,
  ToolsQuery,
  ToolExport,
  ExecuteOptions,
  ExecuteResult,
  CallOptions,
  CallResult,
  CallVersions,
  CallArguments,
  CallData,
} from './toolgate-client';
export type { CallEvent, KnownCallEvent, UnknownCallEvent } from './transports/call-events';
export {
  ToolgateRuns,
  ENDED_RUN_STATUSES,
  type CreateRunRequest,
  type ListRunsRequest,
  type RunPlanRequest,
  type RunDecisionRequest,
  type CompensateRunRequest,
  type TranscriptFormat,
  type RunTurn,
  type RunTurnOptions,
  type RunRequestOptions,
} from './runs/runs-client';
export { turnIdempotencyKey } from './runs/loop-on-run';
export {
  ToolSearch,
  type ToolSearchOptions,
  type ToolSearchAnswer,
  type ToolSearchRecord,
  type SearchToolDefinition,
  type SearchOutput,
} from './tool-search/tool-search';
export {
  ToolgateSdkError,
  ToolgateApiError,
  ToolgateNetworkError,
  ToolgateTimeoutError,
  ToolgateInvalidResponseError,
  ToolgateRunEndedError,
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
  IRCallsCompletedSchema,
  CallsAcceptedSchema,
  CallFinishedEventSchema,
  CallStreamEventSchemas,
  PARTIAL_STATES_LIMITS,
  PartialArgumentStatesSchema,
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
  type IRCallsCompleted,
  type CallsAccepted,
  type CallFinishedEvent,
  type CallStreamEventName,
  type CreateCallsRequest,
  type PartialArgumentStates,
  type PartialStateEntry,
  RunSchema,
  RunTranscriptSchema,
  type Run,
  type RunMode,
  type RunStatus,
  type RunStep,
  type RunStepCall,
  type RunStepStatus,
  type RunSummary,
  type RunPage,
  type RunTranscript,
} from '@toolgate/contract';
export { implementTool, type ImplementedTool } from './implement-tool';
export {
  localTools,
  type LocalTools,
  type LocalToolsOptions,
  type LocalApproval,
  type LocalToolDefinition,
  type ToolExecutor,
  type ToolExecutionContext,
} from './local-tools';
export {
  runToolLoop,
  streamToolLoop,
  type ToolLoopOptions,
  type GatewayToolLoopOptions,
  type StreamToolLoopOptions,
  type GatewayStreamToolLoopOptions,
  type StreamToolLoopSettings,
  type ToolLoopTarget,
  type StreamToolLoopTarget,
  type ToolLoopSettings,
  type PrepareStepContext,
  type ToolLoopResult,
  type ToolLoopStep,
  type ToolLoopEvent,
  type OpenAIChatLoopClient,
  type OpenAIResponsesLoopClient,
  type AnthropicLoopClient,
  type GeminiLoopClient,
  type GeminiStreamLoopClient,
} from './agent-loop';
export {
  stepCountIs,
  hasToolCall,
  type StopCondition,
  type StopConditionContext,
  type AnyStepStopCondition,
} from './loop/stop-conditions';
export { registryTypes } from './loop/tool-types';
export type {
  RegistryTypes,
  RegistryToolTypes,
  NoRegistryTools,
  StepToolCall,
  StepToolResult,
  TypedToolCall,
  TypedToolResult,
  DynamicToolCall,
  DynamicToolResult,
  ToolCallExecutor,
} from './loop/tool-types';
// Tools defined in code: an app needs nothing but the SDK (and zod) to write them.
export {
  defineTool,
  PRESET_TIMEOUT_MS,
  type DefinedTool,
  type DefineToolOptions,
  type DefineToolPresetOptions,
  type DefinedTextTool,
  type DefineTextToolOptions,
  type TextToolArguments,
  zodFromToolIR,
  type ToolArgumentsSchema,
  type ToolHandler,
  type ToolHandlerContext,
  type ToolIR,
  type ToolCallIR,
  type ToolResultIR,
  type ToolResultError,
} from '@toolgate/toolir';
export { streamToolCalls, type StreamToolCallsOptions } from './stream/stream-tool-calls';
export {
  recordPartialStates,
  type PartialStateRecorder,
  type PartialStatesOptions,
} from './stream/partial-states/partial-state-recorder';
export { PARTIAL_STATE_SPAN } from './stream/partial-states/partial-state-spans';
export type { OfferedTools } from './stream/offered-tools';
// What stream events carry and the wire formats are named by, for code generic over providers.
export type {
  Provider,
  ToolCallStreamEvent,
  ToolCallStartEvent,
  ToolCallDeltaEvent,
  ToolCallEndEvent,
  TextDeltaEvent,
  StreamErrorEvent,
} from '@toolgate/adapters';
export { ToolgateError } from '@toolgate/toolir';
export type {
  SpanAttributeValue,
  SpanLike,
  SpanOptionsLike,
  TracerLike,
} from './telemetry/client-tracing';
