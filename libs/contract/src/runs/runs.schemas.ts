import { ToolResultIRSchema } from '@toolgate/toolir';
import { z } from 'zod';
import {
  CallIdSchema,
  CallStatusSchema,
  CreateCallsSchema,
  MAX_CALLS_PER_REQUEST,
} from '../calls/calls.schemas';
import { CursorParamSchema, LimitSchema, pageOf, TimestampSchema } from '../common/pagination';
import { VersionSpecSchema } from '../common/version-selection';

/** Most steps one plan may hold. */
export const MAX_PLAN_STEPS = 256;

export const RunIdSchema = z.uuid().meta({ description: "The gateway's id of the run." });

export const RUN_MODES = ['react', 'plan'] as const;
export const RunModeSchema = z.enum(RUN_MODES).meta({
  description:
    '`react`: the app posts each model turn (POST /v1/runs/{runId}/turns); `plan`: the app posts a plan of steps the gateway runs (POST /v1/runs/{runId}/plan).',
});
export type RunMode = z.infer<typeof RunModeSchema>;

export const RUN_STATUSES = [
  'running',
  'awaiting_approval',
  'awaiting_decision',
  'compensating',
  'succeeded',
  'failed',
  'cancelled',
] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES).meta({
  description:
    '`running` (a ReAct run stays so between turns); `awaiting_approval` while a call waits for a person; `awaiting_decision` when a step ended `outcome_unknown` (POST /v1/runs/{runId}/decide); `compensating` while the compensations of completed writes run, in reverse order; `succeeded` when every plan step did; `failed` with `failed_step` (re-plan, retry or compensate to go on); `cancelled`.',
});
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** Statuses after which a run takes no further step, turn or plan on its own. */
export const FINAL_RUN_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

export const RUN_STEP_STATUSES = [
  'pending',
  'running',
  'succeeded',
  'failed',
  'outcome_unknown',
  'skipped',
  'cancelled',
] as const;
export const RunStepStatusSchema = z.enum(RUN_STEP_STATUSES).meta({
  description:
    '`pending` -> `running` -> `succeeded` | `failed` | `outcome_unknown` (a call on a non-idempotent tool was cut by a crash); `skipped` by a decision; `cancelled` with its run or dropped by a re-plan.',
});
export type RunStepStatus = z.infer<typeof RunStepStatusSchema>;

/** Why a step or a run stopped. */
export const RunReasonSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    retryable: z.boolean().meta({
      description: 'Whether running the step again unchanged may succeed.',
    }),
  })
  .meta({ id: 'RunReason' });
export type RunReason = z.infer<typeof RunReasonSchema>;

export const COMPENSATION_POLICIES = ['manual', 'automatic'] as const;
export const CompensationPolicySchema = z.enum(COMPENSATION_POLICIES).meta({
  description:
    '`manual`: a failed step waits for POST /v1/runs/{runId}/compensate (or a re-plan or decision); `automatic`: when a step fails after some of its calls completed, the gateway runs their compensations at once, in reverse order.',
});
export type CompensationPolicy = z.infer<typeof CompensationPolicySchema>;

const StepNameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits, `_`, `.`, `:` and `-` only');

/**
 * A step the run already has, as `steps[].name` shows it: a plan step's name, or a turn's, which
 * is `turn:<Idempotency-Key>` (any visible ASCII) when the turn came with one.
 */
const ExistingStepNameSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[\x21-\x7e]+$/, 'a step name as the run shows it (visible ASCII)');

export const CreateRunSchema = z.strictObject({
  conversation_id: z.string().min(1).max(256).optional(),
  mode: RunModeSchema,
  metadata: z
    .record(z.string().min(1).max(128), z.unknown())
    .optional()
    .meta({ description: "The app's own data about the run, kept as is." }),
  compensation: CompensationPolicySchema.default('manual'),
});
export type CreateRunInput = z.output<typeof CreateRunSchema>;

/** One call of a run step: the call record's status and, once final, its result. */
export const RunStepCallSchema = z
  .object({
    id: CallIdSchema,
    index: z.number().int().min(0).meta({ description: "The call's place in its step." }),
    provider_call_id: z.string(),
    tool: z.string(),
    version: z.string(),
    status: CallStatusSchema,
    arguments: z.record(z.string(), z.unknown()),
    result: ToolResultIRSchema.nullable(),
  })
  .meta({ id: 'RunStepCall' });
export type RunStepCall = z.infer<typeof RunStepCallSchema>;

/** The completed call a compensation step undoes. */
export const CompensatedCallSchema = z
  .object({
    step: z.string().meta({ description: 'The step that made the call.' }),
    call_id: CallIdSchema,
    tool: z.string(),
    version: z.string(),
  })
  .meta({ id: 'CompensatedCall' });
export type CompensatedCall = z.infer<typeof CompensatedCallSchema>;

export const RunStepSchema = z
  .object({
    name: z.string(),
    position: z.number().int().min(0),
    kind: z.enum(['turn', 'plan', 'compensation']).meta({
      description:
        '`turn`: a ReAct turn; `plan`: a plan step; `compensation`: the call that undoes a completed one (`compensates`).',
    }),
    compensates: CompensatedCallSchema.nullable().meta({
      description: 'For a compensation step, the call it undoes; null otherwise.',
    }),
    status: RunStepStatusSchema,
    attempt: z
      .number()
      .int()
      .min(1)
      .meta({ description: 'Starts at 1; a re-plan or a `retry` decision runs the step anew.' }),
    depends_on: z.array(z.string()),
    reason: RunReasonSchema.nullable(),
    calls: z.array(RunStepCallSchema).meta({
      description: 'The calls of the current attempt, in order (empty until the step starts).',
    }),
    started_at: TimestampSchema.nullable(),
    finished_at: TimestampSchema.nullable(),
  })
  .meta({ id: 'RunStep' });
export type RunStep = z.infer<typeof RunStepSchema>;

/** A completed write that has no way back. */
export const IrreversibleCallSchema = CompensatedCallSchema.extend({
  reason: z.string().meta({ description: 'Why it cannot be undone.' }),
}).meta({ id: 'IrreversibleCall' });
export type IrreversibleCall = z.infer<typeof IrreversibleCallSchema>;

/** One compensation of a run: what it undoes (as compensation steps) and what it cannot. */
export const RunCompensationSchema = z
  .object({
    requested_by: z.string().meta({ description: '`automatic`, or the actor who asked.' }),
    requested_at: TimestampSchema,
    failed_step: z.string().nullable().meta({ description: 'The step whose failure it answers.' }),
    scope: z.enum(['step', 'run']),
    steps: z.array(z.string()).meta({
      description:
        'The compensation steps it added, in the order they run (the reverse of the calls).',
    }),
    cannot_be_undone: z.array(IrreversibleCallSchema).meta({
      description:
        'Completed writes without a declared compensation (or whose compensation cannot be built): reported, not undone.',
    }),
  })
  .meta({ id: 'RunCompensation' });
export type RunCompensation = z.infer<typeof RunCompensationSchema>;

export const RunSchema = z
  .object({
    id: RunIdSchema,
    team_id: z.uuid(),
    mode: RunModeSchema,
    status: RunStatusSchema,
    conversation_id: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    failed_step: z.string().nullable().meta({
      description: 'The step that stopped the run (failed, or awaiting a decision).',
    }),
    reason: RunReasonSchema.nullable(),
    compensation: CompensationPolicySchema,
    compensations: z.array(RunCompensationSchema).meta({
      description: 'Every compensation asked of the run, oldest first.',
    }),
    steps: z.array(RunStepSchema),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Run' });
export type Run = z.infer<typeof RunSchema>;

export const RunSummarySchema = RunSchema.omit({ steps: true }).meta({ id: 'RunSummary' });
export type RunSummary = z.infer<typeof RunSummarySchema>;

export const RunPageSchema = pageOf(RunSummarySchema).meta({ id: 'RunPage' });
export type RunPage = z.infer<typeof RunPageSchema>;

export const ListRunsQuerySchema = z.strictObject({
  status: RunStatusSchema.optional(),
  cursor: CursorParamSchema.optional(),
  limit: LimitSchema,
});
export type ListRunsQuery = z.output<typeof ListRunsQuerySchema>;

/** POST /v1/runs/{runId}/turns takes what POST /v1/calls takes. */
export const CreateRunTurnSchema = CreateCallsSchema.omit({ conversation_id: true });
export type CreateRunTurnInput = z.output<typeof CreateRunTurnSchema>;

/** A reference to an earlier step's result, resolved when the step that holds it starts. */
export const StepReferenceSchema = z
  .strictObject({
    $ref: z.strictObject({
      step: StepNameSchema,
      call: z.number().int().min(0).default(0),
      pointer: z
        .string()
        .max(1024)
        .refine((value) => value === '' || value.startsWith('/'), 'must be a JSON Pointer')
        .meta({
          description:
            "A JSON Pointer (RFC 6901) into the call's result `{ok, data, error}`: `/data/order_id`.",
        }),
    }),
  })
  .meta({ id: 'StepReference' });
export type StepReference = z.infer<typeof StepReferenceSchema>;

export const PlanCallSchema = z.strictObject({
  tool: z.string().min(1).max(200),
  version: VersionSpecSchema.optional(),
  arguments: z.record(z.string(), z.unknown()).meta({
    description:
      'The arguments; any value may be a `{"$ref": {step, call, pointer}}` to an earlier step\'s result, and `{"$literal": value}` passes `value` on as written (an object shaped like a `$ref` included).',
  }),
});
export type PlanCall = z.infer<typeof PlanCallSchema>;

export const PlanStepSchema = z.strictObject({
  name: StepNameSchema,
  calls: z.array(PlanCallSchema).min(1).max(MAX_CALLS_PER_REQUEST),
  depends_on: z.array(StepNameSchema).max(MAX_PLAN_STEPS).default([]),
});
export type PlanStep = z.output<typeof PlanStepSchema>;

export const CreatePlanSchema = z.strictObject({
  steps: z.array(PlanStepSchema).min(1).max(MAX_PLAN_STEPS),
});
export type CreatePlanInput = z.output<typeof CreatePlanSchema>;

export const RunDecisionSchema = z.strictObject({
  step: ExistingStepNameSchema,
  action: z.enum(['retry', 'skip', 'fail']).meta({
    description:
      "`retry` runs again the step's calls whose effect is not in place (those that failed, and those a compensation undid; a call that succeeded and stands is kept, not repeated), under new idempotency keys; `skip` lets dependents go on without it; `fail` ends the run.",
  }),
});

export const CompensateRunSchema = z.strictObject({
  step: ExistingStepNameSchema.optional().meta({
    description: "The step whose completed writes to undo; the run's `failed_step` when absent.",
  }),
  scope: z.enum(['step', 'run']).default('step').meta({
    description:
      "`step`: the step's completed writes; `run`: every completed write of the run (each step's), latest first.",
  }),
});
export type CompensateRunInput = z.output<typeof CompensateRunSchema>;
export type RunDecision = z.infer<typeof RunDecisionSchema>;

export const TRANSCRIPT_FORMATS = [
  'openai-chat',
  'openai-responses',
  'anthropic',
  'gemini',
] as const;
export const TranscriptQuerySchema = z.strictObject({
  format: z.enum(TRANSCRIPT_FORMATS).meta({
    description: 'The provider whose message format the transcript is written in.',
  }),
});
export type TranscriptQuery = z.output<typeof TranscriptQuerySchema>;

export const RunTranscriptSchema = z
  .object({
    format: z.enum(TRANSCRIPT_FORMATS),
    messages: z.array(z.unknown()).meta({
      description:
        "Every turn's assistant tool-call message and its tool-result message(s), in order, as the provider's messages (OpenAI Responses: input items).",
    }),
  })
  .meta({ id: 'RunTranscript' });
export type RunTranscript = z.infer<typeof RunTranscriptSchema>;
