import { z } from 'zod';
import {
  CallsAcceptedSchema,
  CallsCompletedSchema,
  CreateCallsHeadersSchema,
} from '../calls/calls.schemas';
import { defineRoute } from '../route/route';
import {
  CompensateRunSchema,
  CreatePlanSchema,
  CreateRunSchema,
  CreateRunTurnSchema,
  ListRunsQuerySchema,
  RunDecisionSchema,
  RunIdSchema,
  RunPageSchema,
  RunSchema,
  RunTranscriptSchema,
  TranscriptQuerySchema,
} from './runs.schemas';

const tags = ['runs'] as const;
const runParams = z.strictObject({ runId: RunIdSchema });

export const runsRoutes = {
  createRun: defineRoute({
    operationId: 'createRun',
    method: 'post',
    path: '/v1/runs',
    summary: "Start a durable run (ReAct turns or a plan), owned by the caller's team and key.",
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    body: CreateRunSchema,
    bodyExamples: {
      plan: { mode: 'plan', metadata: { task: 'refund order 42' } },
      react: { mode: 'react', conversation_id: 'conv_42' },
    },
    responses: { 201: { description: 'The run, with no steps yet.', schema: RunSchema } },
    problems: [],
  }),
  listRuns: defineRoute({
    operationId: 'listRuns',
    method: 'get',
    path: '/v1/runs',
    summary: "The team's runs, newest first.",
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    query: ListRunsQuerySchema,
    responses: { 200: { description: 'A page of runs.', schema: RunPageSchema } },
    problems: [],
  }),
  getRun: defineRoute({
    operationId: 'getRun',
    method: 'get',
    path: '/v1/runs/{runId}',
    summary: "A run's state: its status and its steps with their calls' statuses and results.",
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: runParams,
    responses: { 200: { description: 'The run.', schema: RunSchema } },
    problems: ['not_found'],
  }),
  cancelRun: defineRoute({
    operationId: 'cancelRun',
    method: 'post',
    path: '/v1/runs/{runId}/cancel',
    summary: 'Cancel a run: its unfinished calls are cancelled and no further step starts.',
    description: 'A run that already ended answers `conflict`.',
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: runParams,
    responses: { 200: { description: 'The run, cancelled.', schema: RunSchema } },
    problems: ['not_found', 'conflict'],
  }),
  completeRun: defineRoute({
    operationId: 'completeRun',
    method: 'post',
    path: '/v1/runs/{runId}/complete',
    summary:
      "End a ReAct run that reached the model's final answer: it succeeds and takes no more turns.",
    description:
      'A plan run ends by itself; one, a run with a step still running or compensating, or a run that already ended answers `conflict`.',
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: runParams,
    responses: { 200: { description: 'The run, succeeded.', schema: RunSchema } },
    problems: ['not_found', 'conflict'],
  }),
  createRunTurn: defineRoute({
    operationId: 'createRunTurn',
    method: 'post',
    path: '/v1/runs/{runId}/turns',
    summary:
      "Execute one model turn of a ReAct run, posted as for POST /v1/calls; the turn becomes the run's next checkpointed step.",
    description:
      'Parsed, recorded and answered exactly as POST /v1/calls (the same problems); an Idempotency-Key names the turn, so a repeat answers with the same step and calls. A run in `plan` mode, or one that ended, answers `conflict`.',
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: runParams,
    headers: CreateCallsHeadersSchema,
    body: CreateRunTurnSchema,
    bodyExamples: {
      openaiChat: {
        provider: 'openai-chat',
        payload: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_abc',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
      },
    },
    responses: {
      200: {
        description: "Every call finished: the results in the provider's wire format.",
        schema: CallsCompletedSchema,
      },
      202: {
        description: 'Some calls are still running or waiting for approval after `wait_ms`.',
        schema: CallsAcceptedSchema,
      },
    },
    problems: [
      'not_found',
      'conflict',
      'unknown_format',
      'invalid_payload',
      'unknown_tool',
      'version_sunset',
    ],
  }),
  getRunTranscript: defineRoute({
    operationId: 'getRunTranscript',
    method: 'get',
    path: '/v1/runs/{runId}/transcript',
    summary:
      "The run's whole tool history (each turn's tool calls and their results, in order) as one provider's messages.",
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: runParams,
    query: TranscriptQuerySchema,
    responses: { 200: { description: 'The transcript.', schema: RunTranscriptSchema } },
    problems: ['not_found'],
  }),
  createRunPlan: defineRoute({
    operationId: 'createRunPlan',
    method: 'post',
    path: '/v1/runs/{runId}/plan',
    summary:
      'Post (or re-post) the plan of a plan-mode run: named steps of calls with dependencies; the gateway runs it durably.',
    description:
      'Each step starts once the steps it depends on succeeded, with its `$ref` arguments resolved from their results; independent steps run in parallel; a failed step stops the run (`failed`, `failed_step`). Posting a plan again keeps the steps that succeeded (their names are not run again) and replaces the rest. A plan with a cycle, an unknown dependency, a reference to a step it does not depend on or a tool the team cannot call answers `invalid_plan` and nothing is written; a run that is not in `plan` mode, ended, or has a step still running answers `conflict`.',
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: runParams,
    body: CreatePlanSchema,
    bodyExamples: {
      refund: {
        steps: [
          { name: 'find', calls: [{ tool: 'find_order', arguments: { number: 42 } }] },
          {
            name: 'refund',
            depends_on: ['find'],
            calls: [
              {
                tool: 'refund_order',
                arguments: { order_id: { $ref: { step: 'find', call: 0, pointer: '/data/id' } } },
              },
            ],
          },
        ],
      },
    },
    responses: {
      202: { description: 'The plan is running; follow GET /v1/runs/{runId}.', schema: RunSchema },
    },
    problems: ['not_found', 'conflict', 'invalid_plan'],
  }),
  decideRun: defineRoute({
    operationId: 'decideRun',
    method: 'post',
    path: '/v1/runs/{runId}/decide',
    summary:
      'Decide what happens to a step whose outcome is unknown (or that failed): retry it, skip it, or fail the run.',
    description: 'A step that is not `outcome_unknown` or `failed` answers `conflict`.',
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: runParams,
    body: RunDecisionSchema,
    bodyExamples: { retry: { step: 'charge', action: 'retry' } },
    responses: { 200: { description: 'The run after the decision.', schema: RunSchema } },
    problems: ['not_found', 'conflict'],
  }),
  compensateRun: defineRoute({
    operationId: 'compensateRun',
    method: 'post',
    path: '/v1/runs/{runId}/compensate',
    summary:
      "Undo a failed step's completed writes: each declared compensation runs as a normal call, latest first.",
    description:
      'Adds one `compensation` step per completed non-readonly call, chained so they run one at a time in reverse order of completion; policies and approvals apply to each. Completed writes whose tool declares no compensation are listed under `cannot_be_undone`. The run is `compensating` until they end, then as it was before (a plan run `failed`: retry the step or re-plan; a ReAct run `running`: post the next turn). A run with nothing to undo, or still running a step, answers `conflict`.',
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: runParams,
    body: CompensateRunSchema,
    bodyExamples: { failedStep: {}, wholeRun: { step: 'charge', scope: 'run' } },
    responses: {
      202: {
        description: 'The compensations are running; follow GET /v1/runs/{runId}.',
        schema: RunSchema,
      },
    },
    problems: ['not_found', 'conflict'],
  }),
};
