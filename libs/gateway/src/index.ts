export {
  CallRunner,
  OUTCOME_UNKNOWN_MESSAGE,
  type CallRunnerDeps,
  type ExecuteToolCallResult,
  type SkipReason,
} from './runner/call-runner';
export { CallCancellation, type CancellationHandle } from './runner/call-cancellation';
export {
  createEngineContext,
  createGatewayExecutors,
  registryContextFactory,
  type CallScope,
  type CreateEngineContext,
  type EngineDeps,
  type RegistryPorts,
} from './runner/engine-context';
export { ClientRelayHub, type RelayedClient } from './client-relay/client-relay-hub';
export {
  InProcessClientRelayChannel,
  type ClientRelayChannel,
} from './client-relay/client-relay-channel';
export {
  RedisClientRelayChannel,
  type RedisClientRelayChannelOptions,
} from './client-relay/redis-client-relay-channel';
export { InMemoryCallRepository } from './runner/in-memory-call.repository';
export {
  createGatewayEgress,
  EgressAllowSetting,
  gatewayEgressFromSettings,
  type GatewayEgress,
} from './egress/gateway-egress';
export { addToKeyedSet } from './events/keyed-sets';
export {
  WatchedCalls,
  redisCallEvents,
  type CallEventSinks,
  type CallFinishedMessage,
  type RedisEventChannel,
} from './events/call-events';
export {
  CallDispatcher,
  type DispatchStore,
  type DispatchedCall,
} from './dispatch/call-dispatcher';
export {
  OutcomeWriteBehind,
  withOutcomesWrittenBehind,
  type OutcomeBatchStore,
  type WriteBehindOptions,
} from './inline/outcome-write-behind';
export { RedisRateLimiter, type RedisRateLimiterOptions } from './rate-limit/redis-rate-limiter';
export {
  RedisResultCacheStore,
  DEFAULT_REDIS_CACHE_MAX_ENTRY_BYTES,
  type RedisResultCacheStoreOptions,
} from './cache/redis-result-cache-store';
export { LuaScript } from './rate-limit/lua-script';
export {
  MAX_SLEEP_MS,
  createExampleBuiltins,
  echoHandler,
  sleepHandler,
} from './builtins/example-builtins';
export {
  startTracing,
  TraceContentMaxBytesSetting,
  TraceContentSetting,
  traceContentOf,
  type Tracing,
  type TracingSettings,
} from './telemetry/tracing';
export {
  BUDGET_PERIODS,
  BUDGET_SCOPES,
  budgetStateOf,
  microsToUsd,
  periodWindow,
  usdToMicros,
  type Budget,
  type BudgetPeriod,
  type BudgetScope,
  type BudgetState,
  type PeriodWindow,
  type SpendSubject,
} from './spend/budget';
export { InMemorySpendCounters, spendCounterKey, type SpendCounters } from './spend/spend-counters';
export { RedisSpendCounters, type RedisSpendCountersOptions } from './spend/redis-spend-counters';
export {
  CallBudgets,
  budgetRefusal,
  callCostUsd,
  withBudgetNote,
  type BudgetAdmission,
  type BudgetBreach,
  type BudgetCaller,
  type CallBudgetsDeps,
} from './spend/call-budgets';
