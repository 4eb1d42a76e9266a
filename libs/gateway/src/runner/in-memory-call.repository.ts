import type {
  CallOutcome,
  CallRecord,
  CallRepository,
  CallRun,
  ClaimResult,
  NewCall,
} from '@toolgate/persistence';
import {
  ABANDONED_RUN_ATTEMPTS,
  STARTABLE_CALL_STATES,
  claimByReading,
  endLastRun,
} from '@toolgate/persistence';

/** Call records in this process's memory: for unit tests and the embedded mode (calls do not survive a restart). */
export class InMemoryCallRepository implements CallRepository {
  private readonly records = new Map<string, CallRecord>();
  // Executor attempts of every pickup so far (the `attempts` column of the calls table).
  private readonly attempts = new Map<string, number>();

  /** Records a new call as `queued`; an existing id is left as it is (returns false). */
  create(input: NewCall): Promise<boolean> {
    if (this.records.has(input.call.id)) return Promise.resolve(false);
    this.records.set(input.call.id, {
      call: structuredClone(input.call),
      tool: structuredClone(input.tool),
      caller: structuredClone(input.caller),
      conversation_id: input.conversation_id,
      state: 'queued',
    });
    return Promise.resolve(true);
  }

  getCall(callId: string): Promise<CallRecord | undefined> {
    const record = this.records.get(callId);
    return Promise.resolve(record === undefined ? undefined : structuredClone(record));
  }

  claim(callId: string, run: CallRun): Promise<ClaimResult> {
    return claimByReading(this, { callId, run, start: () => this.markStarted(callId, run) });
  }

  /** `queued`/`retrying` -> `running` held by `run`; false from any other state. */
  markStarted(callId: string, run: CallRun): Promise<boolean> {
    const record = this.records.get(callId);
    if (record === undefined || !STARTABLE_CALL_STATES.includes(record.state))
      return Promise.resolve(false);
    record.state = 'running';
    record.run = { ...run };
    record.runs = [...(record.runs ?? []), { ...run }];
    return Promise.resolve(true);
  }

  takeOver(callId: string, input: { previousRunId: string; run: CallRun }): Promise<boolean> {
    const record = this.records.get(callId);
    if (record?.state !== 'running' || record.run?.run_id !== input.previousRunId)
      return Promise.resolve(false);
    record.run = { ...input.run };
    // The pickup that stopped mid-call stays in the history, and counts toward the attempts.
    record.runs = [
      ...endLastRun(record.runs ?? [], {
        state: 'abandoned',
        at: input.run.started_at,
        attempts: ABANDONED_RUN_ATTEMPTS,
      }),
      { ...input.run },
    ];
    this.attempts.set(callId, (this.attempts.get(callId) ?? 0) + ABANDONED_RUN_ATTEMPTS);
    return Promise.resolve(true);
  }

  recordOutcome(callId: string, input: { runId: string; outcome: CallOutcome }): Promise<boolean> {
    const record = this.records.get(callId);
    if (record?.state !== 'running' || record.run?.run_id !== input.runId)
      return Promise.resolve(false);
    const { outcome } = input;
    record.state = outcome.status;
    // Attempts add up over pickups (an approval's wait, a takeover).
    const attempts = (this.attempts.get(callId) ?? 0) + outcome.attempts;
    this.attempts.set(callId, attempts);
    record.outcome = { ...structuredClone(outcome), attempts };
    record.runs = endLastRun(record.runs ?? [], {
      state: outcome.status,
      at: outcome.finished_at,
      attempts: outcome.attempts,
    });
    return Promise.resolve(true);
  }
}
