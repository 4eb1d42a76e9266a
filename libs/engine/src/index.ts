export { executeCall, DEFAULT_MAX_RESULT_BYTES } from './pipeline/execute-call';
export type { ExecutionContext, ToolResolver } from './pipeline/execution-context';
export {
  toToolResultIR,
  plainToolResult,
  type EngineError,
  type EngineToolResult,
  type ExecutionMetadata,
  type ToolCost,
  type ExecutionResult,
  type ExecutionStatus,
} from './pipeline/execution-result';
export {
  systemClock,
  realSleep,
  realScheduleTimeout,
  type Clock,
  type Sleep,
  type ScheduleTimeout,
  type Random,
} from './pipeline/clock';
export {
  validateCallArguments,
  type CallArgumentsValidation,
} from './pipeline/validate-call-arguments';

export { executeBatch, type BatchOptions, type BatchResult } from './batch/execute-batch';
export {
  planBatch,
  resourceKeyOf,
  BatchPlanError,
  type BatchPlanErrorCode,
  type BatchNode,
  type BatchPlan,
} from './batch/plan-batch';

export {
  ClassificationTable,
  ClassificationRowSchema,
  ClassificationRowsSchema,
  ClassificationMatchSchema,
  ErrorLayerSchema,
  type Classification,
  type ClassificationMatch,
  type ClassificationRow,
  type ErrorLayer,
  type ReloadResult,
} from './classification/classification-table';
export { DEFAULT_CLASSIFICATION_ROWS } from './classification/default-classification-rows';
export type { FailureSignal } from './classification/failure-signal';

export {
  PolicyInputSchema,
  PolicyPrincipalSchema,
  PolicyOAuthSchema,
  allowAllPolicyEngine,
  type PolicyDecision,
  type PolicyEngine,
  type PolicyInput,
  type PolicyPrincipal,
  type PolicyOAuth,
} from './policy/policy-engine';
export {
  CedarPolicyEngine,
  DEFAULT_POLICY_TEXT,
  type CedarPolicyEngineOptions,
  type ForbidErrorMode,
} from './policy/cedar-policy-engine';
export {
  validatePolicies,
  parsePolicyText,
  type ParsedPolicy,
  type PolicyValidationError,
  type PolicyValidationResult,
} from './policy/validate-policies';
export { diffDecisions, type DecisionChange } from './policy/diff-decisions';

export type {
  ApprovalBinding,
  ApprovalCheck,
  ApprovalGate,
  ApprovalReason,
  ApprovalRequest,
} from './approval/approval-gate';
export { approvalReasonOfBehavior } from './approval/approval-gate';
export { InMemoryApprovalGate, type ApprovalRecord } from './approval/in-memory-approval-gate';
export {
  StoredApprovalGate,
  type ApprovalStore,
  type NewStoredApproval,
  type StoredApproval,
  type StoredApprovalGateOptions,
} from './approval/stored-approval-gate';
export { hashArguments } from './approval/hash-arguments';

export type {
  RateLimit,
  RateLimitDecision,
  RateLimiter,
  RateLimitRequest,
} from './rate-limit/rate-limiter';
export { InMemoryRateLimiter } from './rate-limit/in-memory-rate-limiter';

export {
  ResultCache,
  resultCacheKey,
  type ResultCacheRequest,
  type ResultCacheOutcome,
  type CacheableExecution,
} from './cache/result-cache';
export type { CachedResult, ResultCacheStore } from './cache/result-cache-store';
export {
  InMemoryResultCacheStore,
  DEFAULT_IN_MEMORY_CACHE_LIMITS,
} from './cache/in-memory-result-cache-store';

export {
  DEFAULT_RETRY_OPTIONS,
  backoffCap,
  retryDelay,
  parseRetryAfter,
  type RetryOptions,
} from './retry/backoff';

export {
  truncateValue,
  truncatePayload,
  type TruncatedPayload,
  type TruncatedValue,
  type TruncationCut,
  type TruncationReport,
} from './truncate/truncate-result';
export { InMemoryResultStore, type ResultStore } from './truncate/result-store';

export {
  ExecutorConfigSchema,
  HttpExecutorConfigSchema,
  McpExecutorConfigSchema,
  BuiltinExecutorConfigSchema,
  SecretRefSchema,
  HeaderValueSchema,
  HttpParameterSchema,
  HTTP_PARAMETER_STYLES,
  EXECUTOR_RESERVED_HEADERS,
  isHttpTokenName,
  readExecutorConfig,
  type ExecutorConfig,
  type ExecutorKind,
  type HttpExecutorConfig,
  type HttpParameter,
  type McpExecutorConfig,
  type BuiltinExecutorConfig,
  type SecretRef,
  type HeaderValue,
} from '@toolgate/contract';
export {
  ToolExecutionError,
  toolExecutionErrorOf,
  type ExecutorOutcome,
  type ExecutorRequest,
  type ProgressUpdate,
  type ToolExecutor,
} from './executors/executor';
export { ExecutorRegistry, type ExecutorSet } from './executors/executor-registry';
export { createHttpExecutor, type HttpExecutorOptions } from './executors/http-executor';
export {
  assertEgressAllowed,
  classifyAddress,
  describeEgressPolicy,
  EgressConfigError,
  EgressDeniedError,
  egressPolicyFrom,
  parseEgressAllow,
  type AddressClass,
  type EgressAllowRule,
  type EgressPolicy,
} from './egress/egress-policy';
export {
  createEgressDispatcher,
  createEgressFetch,
  resolveEgressAddress,
  type EgressLookup,
} from './egress/egress-dispatcher';
export { createMcpExecutor, type McpExecutorOptions } from './executors/mcp-executor';
export {
  RELAYED_NOTIFICATIONS,
  RELAYED_REQUESTS,
  isRelayedRequest,
  type McpClientRelay,
  type RelayedAnswer,
  type RelayedCapabilities,
  type RelayedMessage,
  type RelayedRequestMethod,
} from './executors/mcp-client-relay';
export {
  BuiltinExecutor,
  type BuiltinHandler,
  type BuiltinHandlerContext,
} from './executors/builtin-executor';
export {
  staticSecretResolver,
  redactSecrets,
  resolveHeaders,
  secretReferencesOf,
  type ResolvedHeaders,
  type SecretReference,
  type SecretResolver,
} from './executors/secret-resolver';
export {
  scrubCredentials,
  scrubUpstreamText,
  UPSTREAM_TEXT_MAX_CHARS,
} from './executors/scrub-upstream-text';

export {
  MemoryEventSink,
  noopEventSink,
  type EventSink,
  type ExecutionEvent,
} from './telemetry/events';
export { silentLogger, type EngineLogger, type LogMethod } from './telemetry/logger';
export {
  GEN_AI_ATTRIBUTES,
  TOOLGATE_ATTRIBUTES,
  defaultTracer,
  genAiProviderName,
  startStepSpan,
} from './telemetry/tracing';
export {
  DEFAULT_TRACE_CONTENT_MAX_BYTES,
  REDACTED,
  TraceContentModeSchema,
  redactSensitive,
  type TraceContentMode,
  type TraceContentOptions,
} from './telemetry/trace-content';
export { traceHeadersOf, withTraceHeaders, type TraceHeaders } from './telemetry/trace-headers';
export type { ResourceVersion } from './concurrency/expected-write';
