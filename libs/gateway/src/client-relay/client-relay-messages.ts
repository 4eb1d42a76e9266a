import { z } from 'zod';

const ParamsSchema = z.record(z.string(), z.unknown()).optional();
const RelayedAnswerSchema = z.union([
  z.strictObject({ result: z.record(z.string(), z.unknown()) }),
  z.strictObject({
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  }),
]);

/** What a runner sends toward the client that made a call (to whoever follows its `relay_id`). */
export const ToClientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('request'),
    relay_id: z.string().min(1),
    /** Unique per relayed request; its answer names it. */
    request_id: z.string().min(1),
    /** The runner that waits for the answer. */
    reply_to: z.string().min(1),
    method: z.string().min(1),
    params: ParamsSchema,
    /** When the call's attempt ends (epoch ms): the client is not asked longer. */
    deadline_at: z.number(),
  }),
  z.strictObject({
    type: z.literal('cancel'),
    relay_id: z.string().min(1),
    request_id: z.string().min(1),
  }),
  z.strictObject({
    type: z.literal('notification'),
    relay_id: z.string().min(1),
    method: z.string().min(1),
    params: ParamsSchema,
  }),
]);
/** What a runner sends toward the client that made a call. */
export type ToClientMessage = z.infer<typeof ToClientMessageSchema>;

/** The client's answer to one relayed request, back to the runner that asked. */
export const ClientAnswerMessageSchema = z.strictObject({
  request_id: z.string().min(1),
  answer: RelayedAnswerSchema,
});
/** The client's answer to one relayed request. */
export type ClientAnswerMessage = z.infer<typeof ClientAnswerMessageSchema>;
