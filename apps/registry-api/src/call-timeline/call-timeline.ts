import type { CallTimelineEvent } from '@toolgate/contract';
import { z } from 'zod';
import type { TimelineCall } from './call-timeline.repository';

export type { TimelineCall };

/** A timeline event while it is built: its instant as a Date, to be sorted by. */
type Dated<TEvent> = TEvent extends unknown ? Omit<TEvent, 'at'> & { at: Date } : never;
type DatedEvent = Dated<CallTimelineEvent>;

// One pickup in the `runs` column, as the call store writes it.
const RunSchema = z.object({
  worker_id: z.string(),
  attempt: z.number(),
  run_id: z.string(),
  started_at: z.number(),
  ended: z.object({ state: z.string(), at: z.number(), attempts: z.number() }).optional(),
});
type Run = z.infer<typeof RunSchema>;

/** A pickup as the timeline tells it: who ran it, when it started and how it ended. */
interface Pickup {
  at: Date;
  worker_id: string | null;
  run_id: string | null;
  /** The queue job's start count of this pickup. */
  job_attempt: number | null;
  ended: string | null;
  ended_at: Date | null;
  attempts: number;
}

/**
 * Each pickup of a call from its `runs` history. The last one may not have ended in the history
 * (cancelled or killed before a statement ended it): a final call ended it with its status, and
 * gets the attempts the others leave over. A row with no history shows its one start.
 */
function pickupsOf(call: TimelineCall): Pickup[] {
  const runs = (Array.isArray(call.runs) ? call.runs : []).flatMap((entry): Run[] => {
    const parsed = RunSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
  if (runs.length === 0) {
    return call.startedAt === null
      ? []
      : [
          {
            at: call.startedAt,
            worker_id: null,
            run_id: null,
            job_attempt: null,
            ended: null,
            ended_at: null,
            attempts: call.attempts,
          },
        ];
  }
  const counted = runs.reduce((sum, run) => sum + (run.ended?.attempts ?? 0), 0);
  return runs.map((run, index) => {
    const last = index === runs.length - 1;
    const final = last && call.finishedAt !== null ? call.status : undefined;
    const ended = run.ended?.state ?? final ?? (last ? null : 'abandoned');
    return {
      at: new Date(run.started_at),
      worker_id: run.worker_id,
      run_id: run.run_id,
      job_attempt: run.attempt,
      ended,
      ended_at:
        run.ended !== undefined
          ? new Date(run.ended.at)
          : final === undefined
            ? null
            : call.finishedAt,
      attempts: run.ended?.attempts ?? (last ? Math.max(0, call.attempts - counted) : 0),
    };
  });
}

/**
 * A call's timeline from what the database records: the call row's timestamps and counters, its
 * history of pickups and its approval. The gateway stores how many attempts each pickup made, not
 * when each ran, so a pickup's attempts and retries are placed at its start; events at one instant
 * keep the pipeline's order (the order they are added in).
 */
export function buildCallTimeline(call: TimelineCall, now: Date = new Date()): CallTimelineEvent[] {
  const events: DatedEvent[] = [];
  events.push({
    at: call.createdAt,
    type: 'received',
    detail: {
      provider: call.provider,
      provider_call_id: call.providerCallId,
      tool: call.toolName,
      version: call.toolVersion,
      actor: call.actor,
      conversation_id: call.conversationId,
    },
  });
  events.push({ at: call.createdAt, type: 'queued', detail: {} });
  const approval = call.approval;
  if (approval !== null) {
    events.push({
      at: approval.createdAt,
      type: 'awaiting_approval',
      detail: {
        approval_id: approval.id,
        reason: approval.reason,
        policy_reason: approval.policyReason,
        expires_at: approval.expiresAt.toISOString(),
      },
    });
    const expired =
      approval.status === 'expired' ||
      (approval.status === 'pending' && approval.expiresAt.getTime() <= now.getTime());
    if (approval.decidedAt !== null && approval.status !== 'pending') {
      events.push({
        at: approval.decidedAt,
        type: 'approval_decided',
        detail: {
          approval_id: approval.id,
          decision: approval.status,
          decided_by: approval.decidedBy,
          reason: approval.decisionReason,
        },
      });
    } else if (expired) {
      events.push({
        at: approval.expiresAt,
        type: 'approval_decided',
        detail: { approval_id: approval.id, decision: 'expired', decided_by: null, reason: null },
      });
    }
  }
  // Attempts are numbered over the whole call: a pickup after a takeover goes on counting.
  let attempt = 0;
  for (const pickup of pickupsOf(call)) {
    events.push({
      at: pickup.at,
      type: 'started',
      detail: {
        worker_id: pickup.worker_id,
        run_id: pickup.run_id,
        job_attempt: pickup.job_attempt,
        ended: pickup.ended,
        ended_at: pickup.ended_at?.toISOString() ?? null,
        attempts: pickup.attempts,
      },
    });
    for (let made = 0; made < pickup.attempts; made += 1) {
      attempt += 1;
      if (attempt > 1) events.push({ at: pickup.at, type: 'retry', detail: { attempt } });
      events.push({ at: pickup.at, type: 'attempt', detail: { attempt } });
    }
  }
  const finishedAt = call.finishedAt;
  if (finishedAt !== null) {
    // A cache answer names no fallback: the version's own result was served from the cache.
    if (call.answeredBy !== null && call.answeredBy !== call.toolName && call.cacheAgeMs === null) {
      events.push({
        at: finishedAt,
        type: 'fallback',
        detail: { tool: call.toolName, answered_by: call.answeredBy },
      });
    }
    events.push(
      call.status === 'cancelled'
        ? { at: finishedAt, type: 'cancelled', detail: {} }
        : {
            at: finishedAt,
            type: 'finished',
            detail: {
              status: call.status,
              ok: call.status === 'succeeded',
              error_code: call.errorCode,
              latency_ms: call.latencyMs,
              attempts: call.attempts,
              answered_by: call.answeredBy,
            },
          },
    );
  }
  return events
    .map((event, index) => ({ event, index }))
    .sort(
      (left, right) =>
        left.event.at.getTime() - right.event.at.getTime() || left.index - right.index,
    )
    .map(({ event }) => ({ ...event, at: event.at.toISOString() }));
}
