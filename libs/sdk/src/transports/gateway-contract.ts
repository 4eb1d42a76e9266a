/**
 * The HTTP contract between the SDK and the Toolgate gateway, in one place so it is easy to align with the API.
 * Every response body the SDK reads is parsed with one of these schemas; unknown fields pass through.
 */
import { issuesFromZod, ToolResultIRSchema } from '@toolgate/toolir';
import { z } from 'zod';
import { ToolgateInvalidResponseError } from '../errors/toolgate-sdk-error';

/** The media type of a problem document (RFC 9457). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The header that names who is asking, for canary bucketing. */
export const SUBJECT_HEADER = 'X-Toolgate-Subject';

/** An RFC 9457 problem document; only the members the SDK reads are checked. */
export const ProblemDocumentSchema = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().optional(),
  detail: z.string().optional(),
  code: z.string().optional(),
  errors: z
    .array(z.looseObject({ path: z.string().optional(), message: z.string().optional() }))
    .optional(),
});
export type ProblemDocument = z.infer<typeof ProblemDocumentSchema>;

/** How one exported tool's version was chosen for this caller. */
export const ToolResolutionSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  /** `pinned`, `canary` or `stable` (kept open so a new reason does not break old SDKs). */
  reason: z.string(),
  deprecated: z.boolean().optional(),
  sunset_at: z.string().nullable().optional(),
  successor_version: z.string().nullable().optional(),
});
export type ToolResolution = z.infer<typeof ToolResolutionSchema>;

/** A tool the export left out for this caller, and why. */
export const SkippedToolSchema = z.looseObject({
  tool_id: z.string(),
  name: z.string(),
  /** `no_stable_release`, `sunset` or `brownout` (kept open so a new reason does not break old SDKs). */
  reason: z.string(),
});
export type SkippedTool = z.infer<typeof SkippedToolSchema>;

/** `GET /v1/exports` 200 body: the tools in the requested wire format and how each version was resolved. */
export const ExportsResponseSchema = z.looseObject({
  format: z.string(),
  tools: z.array(z.looseObject({})),
  /** Request-level fields for the provider call, e.g. `parallel_tool_calls` or `tool_choice`. */
  request_options: z.looseObject({}).default({}),
  resolution: z.array(ToolResolutionSchema),
  skipped: z.array(SkippedToolSchema).default([]),
  /** The adapters' downgrade report: what each tool's definition could not carry in this format. */
  downgrades: z.unknown().optional(),
});
export type ExportsResponse = z.output<typeof ExportsResponseSchema>;

/** `POST /v1/calls` request body. */
export interface CreateCallsRequest {
  provider: string;
  /** The model's tool calls as the provider sent them (a whole response, a message or a content array). */
  payload: unknown;
  conversation_id?: string;
  /** How long the gateway may hold the request to answer synchronously. */
  wait_ms?: number;
}

/** One call the gateway recorded for a `POST /v1/calls`. */
export const CallRecordSchema = z.looseObject({
  id: z.string(),
  /** `queued`, `running`, `awaiting_approval`, `succeeded`, `failed`, `cancelled` or `outcome_unknown`. */
  status: z.string(),
  /** The tool's name. */
  tool: z.string(),
  /** The tool version the call resolved to. */
  version: z.string(),
});
export type CallRecord = z.infer<typeof CallRecordSchema>;

/** `POST /v1/calls` 200 body: every call finished within the wait budget; `results` is the provider's wire. */
export const CallsCompletedResponseSchema = z.looseObject({
  results: z.unknown().refine((value) => value !== undefined, 'results is required'),
  calls: z.array(CallRecordSchema).default([]),
});
export type CallsCompletedResponse = z.output<typeof CallsCompletedResponseSchema>;

/** `POST /v1/calls` 202 body: the calls are running; follow `GET /v1/calls/:id/events` for each id. */
export const CallsAcceptedResponseSchema = z.looseObject({
  call_ids: z.array(z.string().min(1)).min(1),
});
export type CallsAcceptedResponse = z.infer<typeof CallsAcceptedResponseSchema>;

/** The `event:` names of `GET /v1/calls/:id/events` (text/event-stream). */
export const CALL_EVENT_TYPES = [
  'queued',
  'started',
  'progress',
  'retry',
  'awaiting_approval',
  'finished',
] as const;

/** A call's progress event; unknown event names are passed on, not refused. */
export type CallEventType = (typeof CALL_EVENT_TYPES)[number];

/**
 * A `finished` event's data: `{ call_id, result: ToolResultIR }`; a bare ToolResultIR as data is read as well.
 */
export const CallFinishedDataSchema = z.union([
  z.looseObject({ call_id: z.string().optional(), result: ToolResultIRSchema }),
  ToolResultIRSchema.transform((result) => ({ call_id: result.call_id, result })),
]);
export type CallFinishedData = z.output<typeof CallFinishedDataSchema>;

/**
 * Reads a response body with its contract schema; a body of another shape (an older or newer
 * gateway, a proxy's error page) becomes a typed `ToolgateInvalidResponseError` listing every issue.
 */
export function parseResponse<TSchema extends z.ZodType>(
  schema: TSchema,
  value: unknown,
  what: string,
): z.output<TSchema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error).map((issue) => `${issue.path}: ${issue.message}`);
  throw new ToolgateInvalidResponseError(`${what} has an unexpected shape: ${issues.join('; ')}`, {
    issues,
  });
}
