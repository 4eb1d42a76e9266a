export {
  ABANDONED_RUN_ATTEMPTS,
  CALL_STATES,
  CALL_STATUSES,
  FINAL_CALL_STATES,
  STARTABLE_CALL_STATES,
  ClientRelayTargetSchema,
  claimByReading,
  clientRelayOf,
  endLastRun,
  isClaimed,
  type ClaimResult,
  type CallOutcome,
  type CallRecord,
  type CallRepository,
  type CallRun,
  type CallRunEnd,
  type CallRunRecord,
  type CallState,
  type CallTokenCost,
  type ClientRelayTarget,
  type NewCall,
} from './calls/call-repository';
export { callCostOf } from './calls/call-cost';
export {
  CALL_EXECUTION_SCOPES,
  CallStore,
  FINAL_CALL_STATUSES,
  callerOfRow,
  engineCallOf,
  isCallRowId,
  recordOfRow,
  type CallRow,
  type CallStatus,
  type ListCallsFilter,
  type NewCallRow,
  type RunStepCallRow,
  type OutcomeWrite,
  type RecordedTurn,
  type ToolVersionLookup,
  type TurnOwner,
} from './calls/call-store';
export { PgApprovalStore } from './approvals/pg-approval-store';
export {
  SecretKeyError,
  SecretKeySetting,
  SecretKeyring,
  SecretOldKeysSetting,
  SecretSealError,
  type SealedValue,
  type SecretBinding,
} from './secrets/secret-cipher';
export { SECRET_CACHE_TTL_MS, SecretStore, type ResealReport } from './secrets/secret-store';
export {
  DEFAULT_CATALOG_MAX_AGE_MS,
  GatewayCatalog,
  toolForTeam,
  type CatalogBudget,
  type CatalogTool,
  type CatalogVersion,
  type WireNameMatch,
} from './catalog/gateway-catalog';
export {
  CATALOG_CHANNEL,
  NOTIFY_CATALOG_CHANGE,
  listenForCatalogChanges,
  type CatalogListener,
} from './catalog/catalog-notifications';
export {
  pgPoolPort,
  pglitePort,
  sql,
  toArrayLiteral,
  type PgliteLike,
  type SqlPort,
  type SqlResult,
  type SqlStatement,
} from './sql/sql-port';
export {
  DEFAULT_MIGRATIONS_DIR,
  MigrationError,
  migrate,
  readMigrations,
  sha256Hex,
  type Migration,
  type MigrationResult,
} from './migrations/migrator';
export { pgSession, type SqlSession } from './migrations/sql-session';
export {
  AdvanceRunJobSchema,
  CallEventMessageSchema,
  ExecuteToolCallJobSchema,
  GatewayChannel,
  JobName,
  QueueName,
  type AdvanceRunJob,
  type CallEventMessage,
  type ExecuteToolCallJob,
} from './queue/gateway-queue';
export {
  redisAddress,
  subscribeWhenReady,
  waitForRedis,
  type WaitForRedisOptions,
} from './queue/subscribe-when-ready';
export {
  DEFAULT_ENQUEUE_OPTIONS,
  DeferJobError,
  JobPayloadSchemas,
  PermanentJobError,
  isJobName,
  parseJobPayload,
  type CloseOptions,
  type CloseReport,
  type EnqueueJob,
  type EnqueueOptions,
  type EnqueuedJob,
  type JobHandler,
  type JobPayload,
  type JobResult,
  type ProcessOptions,
  type QueueDriver,
  type ReceivedJob,
} from './queue/queue-driver';
export {
  BullMqDriver,
  DEFAULT_STALLED_JOB_SETTINGS,
  fromBullJobId,
  toBullJobId,
  type BullMqDriverOptions,
  type StalledJobSettings,
} from './queue/bullmq.driver';
export { InProcessDriver, type InProcessDriverOptions } from './queue/in-process.driver';
