import { describe, expect, it } from 'vitest';
import { callRow, stepRow } from './__fixtures__/run-rows';
import { callsOfSteps, lastSeenVersions } from './run-advancer';

const run = { id: 'run-1' };

describe('callsOfSteps', () => {
  it("keeps each call's standing attempt: the step's own, or the one a retry kept", () => {
    const step = stepRow({ name: 'orders', attempt: 2, callAttempts: [1, 2] });
    const rows = [
      { index: 0, id: 'kept', attempt: 1 },
      { index: 1, id: 'failed-first', attempt: 1 },
      { index: 1, id: 'retried', attempt: 2 },
    ].map(({ index, id, attempt }) => ({
      runStepId: step.id,
      index,
      row: callRow({
        id,
        toolName: 'create_order',
        idempotencyKey: `run:run-1:orders:${attempt}:orders.${index}`,
      }),
    }));
    expect(callsOfSteps(run, [step], rows)[0]?.calls.map((row) => row.id)).toEqual([
      'kept',
      'retried',
    ]);
    // A re-plan (no kept calls) sees only its own attempt.
    const replanned = { ...step, callAttempts: [] };
    expect(callsOfSteps(run, [replanned], rows)[0]?.calls.map((row) => row.id)).toEqual([
      'retried',
    ]);
  });
});

describe('lastSeenVersions', () => {
  it('is the version each resource last reported, by when the calls finished', () => {
    const rows = [
      { id: 'late', finishedMs: 30, version: '"v3"' },
      { id: 'early', finishedMs: 10, version: '"v1"' },
      { id: 'failed', finishedMs: 40, version: '"v9"', status: 'failed' as const },
    ].map(({ id, finishedMs, version, status }) => ({
      runStepId: 'step-s',
      index: 0,
      row: callRow({
        id,
        toolName: 'put_doc',
        finishedMs,
        ...(status === undefined ? {} : { status }),
        resource: { key: 'doc:1', version },
      }),
    }));
    expect(lastSeenVersions(rows)).toEqual(new Map([['doc:1', '"v3"']]));
  });
});
