import { z } from 'zod';
import { ActorsSchema } from '../common/actor';
import { TimestampSchema } from '../common/pagination';
import { CallIdSchema, CallStatusSchema } from '../calls/calls.schemas';

export const CALL_TIMELINE_EVENT_TYPES = [
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
export type CallTimelineEventType = (typeof CALL_TIMELINE_EVENT_TYPES)[number];

function timelineEvent<TType extends CallTimelineEventType, TDetail extends z.ZodObject>(
  type: TType,
  detail: TDetail,
) {
  return z.object({ at: TimestampSchema, type: z.literal(type), detail });
}

const Empty = z.object({});

/** One step of a call, by what the database recorded; events at one instant keep the pipeline's order. */
export const CallTimelineEventSchema = z
  .discriminatedUnion('type', [
    timelineEvent(
      'received',
      z.object({
        provider: z.string(),
        provider_call_id: z.string(),
        tool: z.string(),
        version: z.string(),
        actor: z.string(),
        conversation_id: z.string().nullable(),
      }),
    ),
    timelineEvent('queued', Empty),
    timelineEvent(
      'awaiting_approval',
      z.object({
        approval_id: z.uuid(),
        reason: z.string(),
        policy_reason: z.string().nullable(),
        expires_at: TimestampSchema,
      }),
    ),
    timelineEvent(
      'approval_decided',
      z.object({
        approval_id: z.uuid(),
        decision: z.enum(['approved', 'denied', 'expired']),
        decided_by: z.string().nullable().meta({ description: 'Null for an expired approval.' }),
        reason: z.string().nullable(),
      }),
    ),
    timelineEvent(
      'started',
      z
        .object({
          worker_id: z.string().nullable(),
          run_id: z.string().nullable(),
          job_attempt: z
            .number()
            .int()
            .nullable()
            .meta({ description: "The queue job's start count of this pickup." }),
          ended: z.string().nullable().meta({
            description:
              'How the pickup ended (a call status, `abandoned` when another took over); null while it runs.',
          }),
          ended_at: TimestampSchema.nullable(),
          attempts: z
            .number()
            .int()
            .min(0)
            .meta({ description: 'Executor attempts this pickup made.' }),
        })
        .meta({
          description: 'A pickup of the call by a worker (or the API, for calls run inline).',
        }),
    ),
    timelineEvent('attempt', z.object({ attempt: z.number().int().min(1) })),
    timelineEvent('retry', z.object({ attempt: z.number().int().min(2) })),
    timelineEvent('fallback', z.object({ tool: z.string(), answered_by: z.string() })),
    timelineEvent(
      'finished',
      z.object({
        status: CallStatusSchema,
        ok: z.boolean(),
        error_code: z.string().nullable(),
        latency_ms: z.number().nullable(),
        attempts: z.number().int().min(0),
        answered_by: z.string().nullable(),
      }),
    ),
    timelineEvent('cancelled', Empty),
  ])
  .meta({ id: 'CallTimelineEvent' });
export type CallTimelineEvent = z.infer<typeof CallTimelineEventSchema>;

export const CallTimelineSchema = z
  .object({
    call_id: CallIdSchema,
    events: z.array(CallTimelineEventSchema),
    actors: ActorsSchema,
  })
  .meta({ id: 'CallTimeline' });
export type CallTimeline = z.infer<typeof CallTimelineSchema>;
