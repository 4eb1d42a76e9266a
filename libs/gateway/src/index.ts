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
export { InMemoryCallRepository } from './runner/in-memory-call.repository';
export {
  createGatewayEgress,
  EgressAllowSetting,
  gatewayEgressFromSettings,
  type GatewayEgress,
} from './egress/gateway-egress';
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
