import { ToolCallIRSchema, ToolResultIRSchema } from '@toolgate/toolir';
import { z } from 'zod';
import { CursorParamSchema, LimitSchema, pageOf, TimestampSchema } from '../common/pagination';
import { PolicyDecisionSchema } from '../policies/policies.schemas';
import {
  CallPinsSchema,
  SnapshotHandleSchema,
  SUBJECT_HEADER_DESCRIPTION,
  SubjectHeaderSchema,
  VersionSpecSchema,
} from '../common/version-selection';
import { CallCostSchema } from '../cost/call-cost.schemas';
import { PartialArgumentStatesSchema } from './partial-states.schemas';

/** Longest a request may wait for its calls; past it the answer is 202 with the call ids. */
export const MAX_CALL_WAIT_MS = 60_000;
/** Most calls one request may carry. */
export const MAX_CALLS_PER_REQUEST = 128;

/** Every value of a call's `status`, as the calls table holds it. */
export const CALL_STATUSES = [
  'queued',
  'running',
  'awaiting_approval',
  'succeeded',
  'failed',
  'cancelled',
  'outcome_unknown',
] as const;
export const CallStatusSchema = z.enum(CALL_STATUSES).meta({
  description:
    '`queued` -> `running` -> `succeeded` | `failed` | `awaiting_approval` | `outcome_unknown` (the call may or may not have taken effect); `cancelled` from any unfinished state.',
});
export type CallStatus = z.infer<typeof CallStatusSchema>;

export const CallIdSchema = z
  .uuid()
  .meta({ description: "The gateway's id of the call (not the provider's)." });

const WaitMsSchema = z.number().int().min(0).max(MAX_CALL_WAIT_MS);
const ConversationIdSchema = z.string().min(1).max(256);

export const CreateCallsSchema = z.strictObject({
  provider: z.string().min(1).max(64).meta({
    description:
      'The wire format of `payload`: openai-chat, openai-responses, anthropic, gemini or mcp.',
  }),
  payload: z
    .unknown()
    .refine((value) => value !== undefined && value !== null, 'is required')
    .meta({
      description: "The model's response, message or content array, as the provider sent it.",
    }),
  conversation_id: ConversationIdSchema.optional().meta({
    description:
      'Groups calls of one conversation; without an Idempotency-Key it also deduplicates them.',
  }),
  wait_ms: WaitMsSchema.optional().meta({
    description: `How long the request may wait for the calls to finish, up to ${MAX_CALL_WAIT_MS}; default configured.`,
  }),
  snapshot: SnapshotHandleSchema.optional(),
  pins: CallPinsSchema.optional(),
  partial_states: z
    .record(z.string().min(1).max(256), PartialArgumentStatesSchema)
    .refine((byCall) => Object.keys(byCall).length <= MAX_CALLS_PER_REQUEST, {
      message: `at most ${MAX_CALLS_PER_REQUEST} calls`,
    })
    .optional()
    .meta({
      description:
        "How each streamed call's arguments grew, keyed by the model's own call id as `payload` has it; stored with the call and returned by GET /v1/calls/{callId}. A key naming no call of the payload is refused (`invalid_request`).",
    }),
});
export type CreateCallsRequest = z.input<typeof CreateCallsSchema>;
export type CreateCallsInput = z.output<typeof CreateCallsSchema>;

export const CreateIRCallsSchema = z
  .array(
    ToolCallIRSchema.extend({
      tool_version: VersionSpecSchema.optional().meta({
        description:
          'The version to run: `2.1.0`, `^2.1`, `stable` or `canary`; wins over `?snapshot=`. Default: the release (the canary for this subject).',
      }),
    }),
  )
  .min(1)
  .max(MAX_CALLS_PER_REQUEST);
export type CreateIRCallsRequest = z.input<typeof CreateIRCallsSchema>;
export type CreateIRCallsInput = z.output<typeof CreateIRCallsSchema>;

export const CreateIRCallsQuerySchema = z.strictObject({
  wait_ms: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_CALL_WAIT_MS)
    .optional()
    .meta({
      description: `How long the request may wait for the calls to finish, up to ${MAX_CALL_WAIT_MS}; default configured.`,
    }),
  conversation_id: ConversationIdSchema.optional().meta({
    description: 'Groups calls of one conversation.',
  }),
  snapshot: SnapshotHandleSchema.optional(),
});
export type CreateIRCallsQuery = z.output<typeof CreateIRCallsQuerySchema>;

/** `Idempotency-Key`: visible ASCII, as in the IETF httpapi idempotency-key draft. */
export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII')
  .optional();

/**
 * Whether a request's `Cache-Control` asks for a fresh answer: a `no-cache` directive (RFC 9111
 * §5.2.1.4) or `max-age=0`. Such a call of a cached tool executes and refreshes the entry.
 */
export function requestsFreshResult(cacheControl: string | undefined): boolean {
  if (cacheControl === undefined) return false;
  return cacheControl
    .split(',')
    .map((directive) =>
      directive
        .trim()
        .toLowerCase()
        .replace(/\s*=\s*/, '='),
    )
    .some((directive) => directive === 'no-cache' || directive === 'max-age=0');
}

export const CreateCallsHeadersSchema = z.looseObject({
  'cache-control': z.string().max(1024).optional().meta({
    description:
      '`no-cache` (or `max-age=0`): calls of tool versions that declare a result cache skip it and execute; their fresh results refresh the cache for later calls.',
  }),
  'x-toolgate-subject': SubjectHeaderSchema.meta({ description: SUBJECT_HEADER_DESCRIPTION }),
  'idempotency-key': IdempotencyKeySchema.meta({
    description:
      'Executes each call of the request once: a repeat with the same key answers with the recorded calls; the same key with other arguments is a conflict.',
  }),
});

export const ListCallsQuerySchema = z.strictObject({
  status: CallStatusSchema.optional(),
  tool: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'Only calls of the tool with this name.' }),
  from: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only calls received at or after this instant.' }),
  to: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only calls received before this instant.' }),
  cursor: CursorParamSchema.optional(),
  limit: LimitSchema,
});
export type ListCallsQuery = z.output<typeof ListCallsQuerySchema>;

/** The lifecycle of a deprecated version that served a call (the headers name only one version). */
export const CallDeprecationNoticeSchema = z
  .object({
    deprecated_at: TimestampSchema,
    sunset_at: TimestampSchema.nullable(),
    successor: z
      .string()
      .nullable()
      .meta({ description: 'The version to move to, when the deprecation names one.' }),
  })
  .meta({ id: 'DeprecationNotice' });
export type CallDeprecationNotice = z.infer<typeof CallDeprecationNoticeSchema>;

export const CallSummarySchema = z
  .object({
    id: CallIdSchema,
    status: CallStatusSchema,
    tool: z.string().meta({ description: "The tool's name." }),
    version: z.string().meta({ description: 'The tool version the call resolved to.' }),
    deprecation: CallDeprecationNoticeSchema.optional().meta({
      description: 'Present when the version that serves the call is deprecated.',
    }),
  })
  .meta({ id: 'CallSummary' });
export type CallSummary = z.infer<typeof CallSummarySchema>;

const CutPointerSchema = z.string().meta({ description: 'JSON Pointer into the arguments.' });

/** What every repair record says of the text that arrived. */
const CutTextFields = {
  received: z.number().int().min(0).meta({ description: 'Characters of arguments that arrived.' }),
  raw_arguments: z.string().meta({ description: 'The argument text that arrived.' }),
};

/** What happened to a call whose arguments were cut off (the model's output ended inside them). */
export const CallArgumentsRepairSchema = z
  .discriminatedUnion('outcome', [
    z.object({
      outcome: z.literal('repaired').meta({
        description:
          'The tool version opts in (`repair_cut_arguments`) and the schema left one completion, which validated: the call ran with `arguments` as completed.',
      }),
      ...CutTextFields,
      closed: z.array(CutPointerSchema).meta({
        description: 'Objects (and full arrays) closed, innermost first.',
      }),
      completed: z
        .array(z.object({ path: CutPointerSchema, value: z.union([z.boolean(), z.null()]) }))
        .meta({ description: 'Literals completed from their first letters (`tr` -> `true`).' }),
      dropped: z
        .array(
          z.object({
            path: CutPointerSchema,
            cut: z.enum(['member_name', 'no_value', 'string', 'number', 'array']),
          }),
        )
        .meta({
          description:
            'Unfinished members left out: a member whose key was cut (`member_name`, the path is its object), or an optional property without default or fixed values whose value was missing (`no_value`) or cut (`string`, `number`, `array`).',
        }),
      filled: z.array(z.object({ path: CutPointerSchema, value: z.unknown() })).meta({
        description: 'Defaults of missing optional properties, filled in the closed objects.',
      }),
    }),
    z.object({
      outcome: z.literal('not_repaired').meta({
        description:
          'The call was answered `incomplete_arguments` and never ran: its version does not opt in, or no completion was certain.',
      }),
      ...CutTextFields,
      reason: z.string().meta({ description: 'Why the arguments were not completed.' }),
    }),
  ])
  .meta({ id: 'CallArgumentsRepair' });
export type CallArgumentsRepair = z.infer<typeof CallArgumentsRepairSchema>;

export const CallSchema = z
  .object({
    id: CallIdSchema,
    team_id: z.uuid(),
    status: CallStatusSchema,
    provider: z
      .string()
      .meta({ description: 'The wire format the call came in (`ir` for POST /v1/calls/ir).' }),
    provider_call_id: z.string().meta({ description: "The model's own id of the call." }),
    conversation_id: z.string().nullable(),
    tool: z.object({ id: z.uuid(), name: z.string(), version: z.string() }),
    arguments: z.record(z.string(), z.unknown()),
    arguments_hash: z.string(),
    result: ToolResultIRSchema.nullable().meta({
      description:
        "The call's result, addressed to the model's own call id; null until it has one.",
    }),
    error_code: z.string().nullable(),
    attempts: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Executor attempts made, over the tool and its fallbacks.' }),
    answered_by: z.string().nullable().meta({
      description:
        "The tool that produced the result (a fallback's name when one answered), or `cache` when the version's result cache answered without executing.",
    }),
    cache_age_ms: z.number().int().min(0).nullable().meta({
      description:
        'How old the cached result was when the result cache answered (`answered_by` is `cache`); null when the call executed.',
    }),
    latency_ms: z.number().nullable(),
    decision: z
      .object({
        effect: z.string().meta({ description: '`allow`, `deny` or `require_approval`.' }),
        rule: z.string().nullable(),
        policy_revision: z.string().nullable(),
      })
      .nullable()
      .meta({
        description: 'The policy decision the call ran under; null before the policy decided.',
      }),
    input_check: z.enum(['regex', 'not_checked']).nullable().meta({
      description:
        "How a free-text call's input was checked against its tool version's grammar: `regex` (matched before the tool ran; a mismatch is `invalid_arguments`), `not_checked` (a Lark grammar: no maintained JavaScript parser exists, so the input ran unchecked); null for JSON calls and free text without a grammar.",
    }),
    partial_states: PartialArgumentStatesSchema.nullable().meta({
      description:
        'How the arguments grew while the model streamed them, as the client posted it with the call; null when it posted none.',
    }),
    arguments_repair: CallArgumentsRepairSchema.nullable().meta({
      description:
        "Set for a call whose arguments were cut off (the model's output ended inside them): `repaired` (completed from the schema and run) or `not_repaired` (answered `incomplete_arguments`); null for a call whose arguments arrived whole.",
    }),
    trace_id: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .nullable()
      .meta({
        description:
          'The W3C trace id of the request that recorded the call (its `traceparent`, or the span the API started), so its trace can be found in a tracing backend; null when none was active.',
      }),
    cost: CallCostSchema.meta({
      description:
        "What the call cost: the tool's own cost (with the outcome) and its share of the model turn's token cost (when the app posted the provider's whole response).",
    }),
    created_at: TimestampSchema,
    started_at: TimestampSchema.nullable(),
    finished_at: TimestampSchema.nullable(),
  })
  .meta({ id: 'Call' });
export type Call = z.infer<typeof CallSchema>;

export const CallPageSchema = pageOf(CallSchema);
export type CallPage = z.infer<typeof CallPageSchema>;

export const CallPolicyDecisionSchema = z.object({
  call_id: CallIdSchema,
  effect: z.string().nullable().meta({
    description: '`allow`, `deny` or `require_approval`; null before the policy decided.',
  }),
  matched_rule: z.string().nullable(),
  policy_revision: z.string().nullable(),
  reason: z
    .string()
    .nullable()
    .meta({ description: "The denial's message, for a call the policy denied." }),
});
export type CallPolicyDecision = z.infer<typeof CallPolicyDecisionSchema>;

/**
 * A JSON object in a provider's wire format, passed on as the provider's API has it. Typed
 * `object`, not as an index signature, so the adapters' wire interfaces are accepted as they are.
 */
export const ProviderObjectSchema = z
  .custom<object>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'must be an object',
  )
  .meta({ override: { type: 'object' } });

/**
 * Results as the provider's wire carries them (what the app appends to the conversation): a list
 * of tool messages or items (openai-chat, openai-responses, mcp) or one message (anthropic, gemini).
 */
export const ProviderResultsSchema = z
  .union([z.array(ProviderObjectSchema), ProviderObjectSchema])
  .meta({
    description:
      "The results in the request's provider wire format, ready to append to the conversation: tool messages (openai-chat), function_call_output items (openai-responses), a user message of tool_result blocks (anthropic), a function content of functionResponse parts (gemini), JSON-RPC responses (mcp).",
  });
export type ProviderResults = z.infer<typeof ProviderResultsSchema>;

export const CallsCompletedSchema = z
  .object({
    results: ProviderResultsSchema,
    tool_results: z.array(ToolResultIRSchema).optional().meta({
      description:
        "The same results as ToolResultIRs, one per call in the order of the calls: what `results` says in the provider's format, without its losses (a failure's code, structured data). Always sent; optional so that readers of older gateways keep working.",
    }),
    calls: z.array(CallSummarySchema),
  })
  .meta({ id: 'CallsCompleted' });
export type CallsCompleted = z.infer<typeof CallsCompletedSchema>;

export const IRCallsCompletedSchema = z
  .object({
    results: z
      .array(ToolResultIRSchema)
      .meta({ description: 'One ToolResultIR per call, in the order of the calls.' }),
    calls: z.array(CallSummarySchema),
  })
  .meta({ id: 'IRCallsCompleted' });
export type IRCallsCompleted = z.infer<typeof IRCallsCompletedSchema>;

export const CallsAcceptedSchema = z
  .object({
    call_ids: z.array(CallIdSchema).min(1).meta({
      description:
        'The calls, in the order of the request; follow GET /v1/calls/{callId}/events for each.',
    }),
    calls: z.array(CallSummarySchema),
  })
  .meta({ id: 'CallsAccepted' });
export type CallsAccepted = z.infer<typeof CallsAcceptedSchema>;

// The events of GET /v1/calls/{callId}/events: each event's `data` is the object below, named by
// its `type` (the `event:` line); `state` carries the call record itself.
const CallEventBase = {
  call_id: CallIdSchema,
  tool: z.string().meta({
    description: "The tool the event is about (a fallback tool's name once a fallback runs).",
  }),
  at: z.number().meta({ description: 'Milliseconds since the epoch.' }),
};

export const CallQueuedEventSchema = z.object({ type: z.literal('queued'), ...CallEventBase });
export const CallStartedEventSchema = z.object({
  type: z.literal('started'),
  ...CallEventBase,
  attempt: z.number().int().min(1),
});
export const CallProgressEventSchema = z.object({
  type: z.literal('progress'),
  ...CallEventBase,
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});
export const CallRetryEventSchema = z.object({
  type: z.literal('retry'),
  ...CallEventBase,
  attempt: z.number().int().min(1),
  delay_ms: z.number(),
  error_code: z.string(),
});
export const CallAwaitingApprovalEventSchema = z.object({
  type: z.literal('awaiting_approval'),
  ...CallEventBase,
  approval_id: z.uuid(),
  reason: z.string(),
  decision: PolicyDecisionSchema.optional(),
});
export const CallFinishedEventSchema = z
  .object({
    type: z.literal('finished'),
    ...CallEventBase,
    ok: z.boolean(),
    status: z.enum(['succeeded', 'failed', 'outcome_unknown']),
    error_code: z.string().optional(),
    latency_ms: z.number(),
    result: ToolResultIRSchema.meta({
      description: "The stored result, addressed to the model's own call id.",
    }),
  })
  .meta({ id: 'CallFinishedEvent' });
export type CallFinishedEvent = z.infer<typeof CallFinishedEventSchema>;
export const CallCancelledEventSchema = z.object({
  type: z.literal('cancelled'),
  ...CallEventBase,
});

/** A live event of a call, as its `data` carries it; `type` is also the SSE event name. */
export const CallEventSchema = z.discriminatedUnion('type', [
  CallQueuedEventSchema,
  CallStartedEventSchema,
  CallProgressEventSchema,
  CallRetryEventSchema,
  CallAwaitingApprovalEventSchema,
  CallFinishedEventSchema,
  CallCancelledEventSchema,
]);
export type CallEvent = z.infer<typeof CallEventSchema>;

/** The `data` of each event of a call's stream, by event name. */
export const CallStreamEventSchemas = {
  state: CallSchema,
  queued: CallQueuedEventSchema,
  started: CallStartedEventSchema,
  progress: CallProgressEventSchema,
  retry: CallRetryEventSchema,
  awaiting_approval: CallAwaitingApprovalEventSchema,
  finished: CallFinishedEventSchema,
  cancelled: CallCancelledEventSchema,
} as const;
export type CallStreamEventName = keyof typeof CallStreamEventSchemas;
/** What an event of a call's stream carries as `data` (as sent: the schemas' input). */
export type CallStreamEventData<TName extends CallStreamEventName = CallStreamEventName> = z.input<
  (typeof CallStreamEventSchemas)[TName]
>;
