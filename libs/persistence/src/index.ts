export {
  FINAL_CALL_STATES,
  STARTABLE_CALL_STATES,
  type CallOutcome,
  type CallRecord,
  type CallRepository,
  type CallRun,
  type CallState,
  type NewCall,
} from './calls/call-repository';
export {
  CALL_EXECUTION_SCOPES,
  PostgresCallRepository,
  callerOfRow,
  isCallRowId,
  type NewCallRow,
} from './calls/postgres-call.repository';
export { PgApprovalStore } from './approvals/pg-approval-store';
export { PgGatewayCatalog } from './catalog/pg-gateway-catalog';
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
  CallEventMessageSchema,
  ExecuteToolCallJobSchema,
  GatewayChannel,
  JobName,
  QueueName,
  type CallEventMessage,
  type ExecuteToolCallJob,
} from './queue/gateway-queue';
export { subscribeWhenReady } from './queue/subscribe-when-ready';
