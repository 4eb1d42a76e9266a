import { CALL_STATUSES } from '@toolgate/persistence';
import { ToolCallIRSchema } from '@toolgate/toolir';
import { z } from 'zod';
import { CursorParamSchema, LimitSchema } from '../common/pagination';
import type { DeprecationNotice } from '../tools/deprecation-headers';

/** Longest a request may wait for its calls; past it the answer is 202 with the call ids. */
export const MAX_WAIT_MS = 60_000;
/** Most calls one request may carry. */
export const MAX_CALLS_PER_REQUEST = 128;

// The one list of call statuses lives with the table.
export { CALL_STATUSES };

export const CreateCallsSchema = z.strictObject({
  /** The wire format of `payload` (checked against the adapters, so an unknown one is a clear 400). */
  provider: z.string().min(1).max(64),
  /** The model's response, message or content array, as the provider sent it. */
  payload: z.unknown().refine((value) => value !== undefined && value !== null, 'is required'),
  conversation_id: z.string().min(1).max(256).optional(),
  wait_ms: z.number().int().min(0).max(MAX_WAIT_MS).optional(),
});
export type CreateCallsDto = z.infer<typeof CreateCallsSchema>;

export const CreateIRCallsSchema = z
  .array(ToolCallIRSchema.omit({ tool_version: true }))
  .min(1)
  .max(MAX_CALLS_PER_REQUEST);
export type CreateIRCallsDto = z.infer<typeof CreateIRCallsSchema>;

export const IRCallsQuerySchema = z.strictObject({
  wait_ms: z.coerce.number().int().min(0).max(MAX_WAIT_MS).optional(),
  conversation_id: z.string().min(1).max(256).optional(),
});
export type IRCallsQueryDto = z.infer<typeof IRCallsQuerySchema>;

/** `Idempotency-Key`: visible ASCII, as in the IETF httpapi idempotency-key draft. */
export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII')
  .optional();

export const ListCallsQuerySchema = z.strictObject({
  status: z.enum(CALL_STATUSES).optional(),
  tool: z.string().min(1).max(200).optional(),
  cursor: CursorParamSchema.optional(),
  limit: LimitSchema,
});
export type ListCallsQueryDto = z.infer<typeof ListCallsQuerySchema>;

export const CallIdParamSchema = z.uuid();

export interface CallSummaryDto {
  id: string;
  status: (typeof CALL_STATUSES)[number];
  tool: string;
  version: string;
  /** Present when the version that serves the call is deprecated. */
  deprecation?: DeprecationNotice;
}

export interface CallDto {
  id: string;
  team_id: string;
  status: (typeof CALL_STATUSES)[number];
  provider: string;
  provider_call_id: string;
  conversation_id: string | null;
  tool: { id: string; name: string; version: string };
  arguments: unknown;
  arguments_hash: string;
  result: unknown;
  error_code: string | null;
  attempts: number;
  answered_by: string | null;
  latency_ms: number | null;
  decision: { effect: string; rule: string | null; policy_revision: string | null } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}
