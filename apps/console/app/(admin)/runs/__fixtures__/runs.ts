import type {
  Call,
  Run,
  RunStatus,
  RunStep,
  RunStepCall,
  RunSummary,
  ToolVersionWithIr,
} from '@toolgate/contract';
import { callOf } from '../../calls/__fixtures__/calls';

export const RUN_ID = '7a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const TEAM_ID = '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90';
const AT = Date.UTC(2026, 11, 6, 10, 0, 0);
const at = (seconds: number) => new Date(AT + seconds * 1000).toISOString();

/** The tools the run calls: a read, a write that undoes itself, and a write that cannot be undone. */
const TOOLS = {
  find_order: { id: '11111111-1111-4111-8111-111111111111', readonly: true },
  charge_card: { id: '22222222-2222-4222-8222-222222222222', undo: 'refund_card' },
  send_email: { id: '33333333-3333-4333-8333-333333333333' },
  reserve_stock: { id: '44444444-4444-4444-8444-444444444444', undo: 'release_stock' },
  create_label: { id: '55555555-5555-4555-8555-555555555555' },
  refund_card: { id: '66666666-6666-4666-8666-666666666666' },
  release_stock: { id: '77777777-7777-4777-8777-777777777777' },
} as const satisfies Record<string, { id: string; readonly?: boolean; undo?: string }>;
type ToolName = keyof typeof TOOLS;

/** Call ids differ in their first 8 characters too, as the console shows them short. */
export function callId(index: number): string {
  const digits = String(index).padStart(2, '0');
  return `0c8e5d${digits}-6a3e-4f9c-8d4b-${String(index).padStart(12, '0')}`;
}

export function stepCall(
  index: number,
  tool: ToolName,
  status: RunStepCall['status'] = 'succeeded',
): RunStepCall {
  return {
    id: callId(index),
    index: 0,
    provider_call_id: `plan_${index}`,
    tool,
    version: '1.0.0',
    status,
    arguments: { order_id: 42 },
    result:
      status === 'succeeded'
        ? { call_id: `plan_${index}`, name: tool, ok: true, data: { id: `${tool}-${index}` } }
        : status === 'failed'
          ? {
              call_id: `plan_${index}`,
              name: tool,
              ok: false,
              error: {
                code: 'upstream_unavailable',
                message: 'label service 503',
                retryable: true,
              },
            }
          : null,
  };
}

function step(
  name: string,
  calls: RunStepCall[],
  overrides: Partial<RunStep> & Pick<RunStep, 'position'>,
): RunStep {
  return {
    name,
    kind: 'plan',
    compensates: null,
    status: 'succeeded',
    attempt: 1,
    depends_on: [],
    reason: null,
    calls: calls.map((call, index) => ({ ...call, index })),
    started_at: at(overrides.position * 2),
    finished_at: at(overrides.position * 2 + 1.5),
    ...overrides,
  };
}

const SHIP_REASON = { code: 'upstream_unavailable', message: 'label service 503', retryable: true };

/**
 * A plan run whose `ship` step failed after `charge` charged a card and sent an email, and `ship`
 * itself reserved stock before the label failed.
 */
export const FAILED_RUN: Run = {
  id: RUN_ID,
  team_id: TEAM_ID,
  mode: 'plan',
  status: 'failed',
  conversation_id: 'conv_42',
  metadata: { task: 'refund order 42' },
  failed_step: 'ship',
  reason: SHIP_REASON,
  compensation: 'manual',
  compensations: [],
  steps: [
    step('find', [stepCall(1, 'find_order')], { position: 0 }),
    step('charge', [stepCall(2, 'charge_card'), stepCall(3, 'send_email')], {
      position: 1,
      depends_on: ['find'],
    }),
    step('ship', [stepCall(4, 'reserve_stock'), stepCall(5, 'create_label', 'failed')], {
      position: 2,
      depends_on: ['charge'],
      status: 'failed',
      reason: SHIP_REASON,
    }),
    step('notify', [], {
      position: 3,
      depends_on: ['ship'],
      status: 'pending',
      started_at: null,
      finished_at: null,
    }),
  ],
  created_at: at(0),
  updated_at: at(6),
};

/** The same run after compensating it whole: two compensations run, one write cannot be undone. */
export const COMPENSATING_RUN: Run = {
  ...FAILED_RUN,
  status: 'compensating',
  updated_at: at(8),
  compensations: [
    {
      requested_by: 'user:admin@example.com',
      requested_at: at(7),
      failed_step: 'ship',
      scope: 'run',
      steps: ['compensate:ship:0', 'compensate:charge:0'],
      cannot_be_undone: [
        {
          step: 'charge',
          call_id: callId(3),
          tool: 'send_email',
          version: '1.0.0',
          reason: 'send_email@1.0.0 declares no compensation',
        },
      ],
    },
  ],
  steps: [
    ...FAILED_RUN.steps,
    step('compensate:ship:0', [stepCall(6, 'release_stock')], {
      position: 4,
      kind: 'compensation',
      compensates: { step: 'ship', call_id: callId(4), tool: 'reserve_stock', version: '1.0.0' },
    }),
    step('compensate:charge:0', [], {
      position: 5,
      kind: 'compensation',
      compensates: { step: 'charge', call_id: callId(2), tool: 'charge_card', version: '1.0.0' },
      depends_on: ['compensate:ship:0'],
      status: 'pending',
      started_at: null,
      finished_at: null,
    }),
  ],
};

/** The call record GET /v1/calls/{id} answers for a call of the run (it carries the tool's id). */
export function callRecordOf(call: RunStepCall): Call {
  const tool = TOOLS[call.tool as ToolName];
  return {
    ...callOf(1),
    id: call.id,
    tool: { id: tool.id, name: call.tool, version: call.version },
  };
}

/** The tool versions the run's calls ran, with their ToolIR. */
export function toolVersionOf(name: ToolName): ToolVersionWithIr {
  const tool: { id: string; readonly?: boolean; undo?: string } = TOOLS[name];
  return {
    tool_id: tool.id,
    version: '1.0.0',
    status: 'published',
    schema_version: '1.0',
    created_by: 'user:admin@example.com',
    created_at: at(-3600),
    deprecated_at: null,
    sunset_at: null,
    successor_version: null,
    brownouts: [],
    ir: {
      schema_version: '1.0',
      id: tool.id,
      name,
      version: '1.0.0',
      description: `The ${name} tool.`,
      parameters: { type: 'object', properties: { order_id: { type: 'integer' } } },
      behavior: {
        readonly: tool.readonly === true,
        destructive: false,
        idempotent: tool.readonly === true,
      },
      constraints: { timeout_ms: 5000 },
      ...(tool.undo === undefined
        ? {}
        : { compensation: { tool: tool.undo, arguments: { id: { from: '/result/id' } } } }),
    },
  };
}

export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];
export { TOOLS };

/** A run as GET /v1/runs lists it. */
export function runSummaryOf(index: number, status: RunStatus = 'succeeded'): RunSummary {
  return {
    id: `7a1d2c3b-4e5f-4a6b-8c7d-${String(index).padStart(12, '0')}`,
    team_id: TEAM_ID,
    mode: 'plan',
    status,
    conversation_id: null,
    metadata: null,
    failed_step: status === 'failed' ? 'ship' : null,
    reason: status === 'failed' ? SHIP_REASON : null,
    compensation: 'manual',
    compensations: [],
    created_at: at(index * 60),
    updated_at: at(index * 60 + 5),
  };
}
