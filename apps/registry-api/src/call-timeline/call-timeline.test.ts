import { describe, expect, it } from 'vitest';
import { buildCallTimeline, type TimelineCall } from './call-timeline';

const T0 = Date.parse('2026-11-30T10:00:00.000Z');

function at(seconds: number): Date {
  return new Date(T0 + seconds * 1000);
}

function call(fields: Partial<TimelineCall> = {}): TimelineCall {
  return {
    actor: 'admin',
    conversationId: null,
    provider: 'openai-chat',
    providerCallId: 'call_1',
    toolName: 'search',
    toolVersion: '1.0.0',
    status: 'succeeded',
    errorCode: null,
    attempts: 1,
    answeredBy: 'search',
    cacheAgeMs: null,
    latencyMs: 100,
    createdAt: at(0),
    startedAt: at(1),
    finishedAt: at(2),
    runs: [],
    approval: null,
    ...fields,
  };
}

function types(row: TimelineCall, now?: Date): string[] {
  return buildCallTimeline(row, now).map((event) => event.type);
}

describe('buildCallTimeline', () => {
  it('tells a plain call from receipt to result', () => {
    expect(types(call())).toEqual(['received', 'queued', 'started', 'attempt', 'finished']);
  });

  it('shows retries before each later attempt and a fallback that answered', () => {
    const events = buildCallTimeline(
      call({ attempts: 3, answeredBy: 'search-backup', status: 'succeeded' }),
    );
    expect(events.map((event) => event.type)).toEqual([
      'received',
      'queued',
      'started',
      'attempt',
      'retry',
      'attempt',
      'retry',
      'attempt',
      'fallback',
      'finished',
    ]);
    expect(events.find((event) => event.type === 'fallback')?.detail).toEqual({
      tool: 'search',
      answered_by: 'search-backup',
    });
  });

  it('ends a cancelled call with cancelled instead of finished', () => {
    expect(
      types(call({ status: 'cancelled', startedAt: null, attempts: 0, answeredBy: null })),
    ).toEqual(['received', 'queued', 'cancelled']);
  });

  it('shows an approval that expired without a decision', () => {
    const approval: NonNullable<TimelineCall['approval']> = {
      id: '00000000-0000-4000-8000-000000000004',
      reason: 'destructive',
      policyReason: null,
      status: 'pending',
      decidedBy: null,
      decisionReason: null,
      createdAt: at(1.5),
      expiresAt: at(60),
      decidedAt: null,
    };
    const waiting = call({
      status: 'awaiting_approval',
      finishedAt: null,
      attempts: 0,
      answeredBy: null,
      approval,
    });
    expect(types(waiting, at(30))).toEqual(['received', 'queued', 'started', 'awaiting_approval']);
    const events = buildCallTimeline(waiting, at(61));
    expect(events.at(-1)).toEqual({
      at: at(60).toISOString(),
      type: 'approval_decided',
      detail: { approval_id: approval.id, decision: 'expired', decided_by: null, reason: null },
    });
  });

  it('shows every pickup of a call a worker left mid-run, with the attempts of each', () => {
    const runs = [
      {
        worker_id: 'worker-a',
        attempt: 1,
        run_id: 'r1',
        started_at: at(1).getTime(),
        ended: { state: 'abandoned', at: at(5).getTime(), attempts: 1 },
      },
      { worker_id: 'worker-b', attempt: 2, run_id: 'r2', started_at: at(5).getTime() },
    ];
    const events = buildCallTimeline(call({ runs, attempts: 2, finishedAt: at(6) }));
    expect(events.map((event) => event.type)).toEqual([
      'received',
      'queued',
      'started',
      'attempt',
      'started',
      'retry',
      'attempt',
      'finished',
    ]);
    expect(events.filter((event) => event.type === 'started').map((event) => event.detail)).toEqual(
      [
        {
          worker_id: 'worker-a',
          run_id: 'r1',
          job_attempt: 1,
          ended: 'abandoned',
          ended_at: at(5).toISOString(),
          attempts: 1,
        },
        // Its end is the call's own, which the outcome statement wrote on the row.
        {
          worker_id: 'worker-b',
          run_id: 'r2',
          job_attempt: 2,
          ended: 'succeeded',
          ended_at: at(6).toISOString(),
          attempts: 1,
        },
      ],
    );
    expect(events.at(-1)?.detail).toMatchObject({ attempts: 2 });
  });
});
