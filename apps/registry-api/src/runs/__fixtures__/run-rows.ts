import type { CallRow } from '@toolgate/persistence';
import type { RunStepRow } from '../runs.repository';

const EPOCH = Date.parse('2026-12-07T00:00:00.000Z');

/** A plan step row of run `run-1`: pending, attempt 1, unless `fields` say otherwise. */
export function stepRow(fields: Partial<RunStepRow> & Pick<RunStepRow, 'name'>): RunStepRow {
  return {
    id: `step-${fields.name}`,
    runId: 'run-1',
    position: 0,
    provider: null,
    plannedCalls: null,
    dependsOn: [],
    status: 'pending',
    attempt: 1,
    reason: null,
    compensates: null,
    callAttempts: [],
    startedAt: null,
    finishedAt: null,
    ...fields,
  };
}

/** A succeeded call row of `tool`@1.0.0 that finished `finishedMs` after the fixtures' epoch. */
export function callRow(
  fields: Partial<CallRow> & Pick<CallRow, 'id' | 'toolName'> & { finishedMs?: number },
): CallRow {
  const { finishedMs = 0, ...rest } = fields;
  return {
    teamId: 'team-1',
    keyId: null,
    actor: 'key:test',
    callerOauth: null,
    clientRelay: null,
    conversationId: null,
    provider: 'ir',
    providerCallId: fields.id,
    toolId: `tool-${fields.toolName}`,
    toolVersion: '1.0.0',
    arguments: {},
    argumentsHash: 'hash',
    idempotencyKey: `run:run-1:step:1:${fields.id}`,
    status: 'succeeded',
    result: null,
    errorCode: null,
    attempts: 1,
    answeredBy: fields.toolName,
    cacheAgeMs: null,
    latencyMs: 1,
    decisionEffect: null,
    decisionRule: null,
    policyRevision: null,
    createdAt: new Date(EPOCH),
    startedAt: new Date(EPOCH),
    finishedAt: new Date(EPOCH + finishedMs),
    runId: null,
    workerId: null,
    runAttempt: null,
    runs: [],
    inputCheck: null,
    partialStates: null,
    argumentsRepair: null,
    traceId: null,
    tokenCost: null,
    toolCost: null,
    expectedVersion: null,
    resource: null,
    ...rest,
  };
}
