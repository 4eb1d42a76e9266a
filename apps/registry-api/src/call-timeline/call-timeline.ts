import type { TimelineCall } from './call-timeline.repository';

export type { TimelineCall };

export const TIMELINE_EVENT_TYPES = [
  'received',
  'queued',
  'awaiting_approval',
  'approval_decided',
  'started',
  'attempt',
  'retry',
  'fallback',
  'finished',
  'cancelled',
] as const;
export type TimelineEventType = (typeof TIMELINE_EVENT_TYPES)[number];

export interface TimelineEvent {
  at: string;
  type: TimelineEventType;
  detail: Record<string, unknown>;
}

/**
 * A call's timeline from what the database records: the call row's timestamps and counters and
 * its approval. The gateway stores how many attempts ran, not when each ran, so attempts and
 * retries are placed at the (last) start; events at one instant keep the pipeline's order
 * (the order they are added in).
 */
export function buildCallTimeline(call: TimelineCall, now: Date = new Date()): TimelineEvent[] {
  const events: Array<{ at: Date; type: TimelineEventType; detail: Record<string, unknown> }> = [];
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
  if (call.startedAt !== null) {
    events.push({ at: call.startedAt, type: 'started', detail: {} });
    for (let attempt = 1; attempt <= call.attempts; attempt += 1) {
      if (attempt > 1) events.push({ at: call.startedAt, type: 'retry', detail: { attempt } });
      events.push({ at: call.startedAt, type: 'attempt', detail: { attempt } });
    }
  }
  const finishedAt = call.finishedAt;
  if (finishedAt !== null) {
    if (call.answeredBy !== null && call.answeredBy !== call.toolName) {
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
    .map((event, index) => ({ ...event, index }))
    .sort((left, right) => left.at.getTime() - right.at.getTime() || left.index - right.index)
    .map(({ at, type, detail }) => ({ at: at.toISOString(), type, detail }));
}
