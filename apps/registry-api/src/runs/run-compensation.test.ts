import type { CallRow } from '@toolgate/persistence';
import { ToolIRSchema, type ToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { ToolIRFactory } from '../../test/factories/tool-ir.factory';
import { callRow, stepRow } from './__fixtures__/run-rows';
import {
  callAttemptOf,
  compensationsByCall,
  isInEffect,
  planCompensation,
  type StepCallsView,
} from './run-compensation';

const WRITE = { readonly: false, destructive: false, idempotent: false };
const createOrder = ToolIRFactory.from({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'create_order',
})
  .with({
    behavior: WRITE,
    compensation: {
      tool: 'cancel_order',
      version: '^1.0.0',
      arguments: { order_id: { from: '/result/order_id' }, reason: { value: 'undone' } },
    },
  })
  .build();
const sendEmail = ToolIRFactory.from({
  id: '00000000-0000-4000-8000-000000000002',
  name: 'send_email',
})
  .with({ behavior: WRITE })
  .build();
const lookUp = ToolIRFactory.from({
  id: '00000000-0000-4000-8000-000000000003',
  name: 'look_up',
}).build();
const TOOLS = new Map<string, ToolIR>(
  [createOrder, sendEmail, lookUp].map((tool) => [tool.name, ToolIRSchema.parse(tool)]),
);
const toolOf = (row: CallRow) => TOOLS.get(row.toolName);

function order(id: string, finishedMs: number, status: CallRow['status'] = 'succeeded'): CallRow {
  return callRow({
    id,
    toolName: 'create_order',
    status,
    finishedMs,
    arguments: { customer: id },
    result: { ok: status === 'succeeded', data: { order_id: `order-${id}` } },
  });
}

describe('planCompensation', () => {
  const failed = stepRow({ name: 'orders', status: 'failed', position: 1 });
  const earlier = stepRow({ name: 'setup', status: 'succeeded', position: 0 });
  const steps: StepCallsView[] = [
    { step: earlier, calls: [order('s0', 5), callRow({ id: 'r', toolName: 'look_up' })] },
    {
      step: failed,
      calls: [
        order('a', 30),
        order('b', 10, 'failed'),
        order('c', 20),
        callRow({ id: 'mail', toolName: 'send_email', finishedMs: 25 }),
      ],
    },
  ];
  const request = {
    target: failed,
    scope: 'step' as const,
    requestedBy: 'key:ops',
    now: new Date('2026-12-07T10:00:00.000Z'),
  };

  it("undoes the step's completed writes latest first, chained, and reports those without a way back", () => {
    const planned = planCompensation(steps, request, toolOf);
    expect(planned.steps).toEqual([
      {
        name: 'undo:orders.0:1',
        call: {
          tool: 'cancel_order',
          version: '^1.0.0',
          arguments: { order_id: 'order-a', reason: 'undone' },
        },
        compensates: { step: 'orders', call_id: 'a', tool: 'create_order', version: '1.0.0' },
        dependsOn: [],
      },
      expect.objectContaining({
        name: 'undo:orders.2:1',
        call: expect.objectContaining({ arguments: { order_id: 'order-c', reason: 'undone' } }),
        dependsOn: ['undo:orders.0:1'],
      }),
    ]);
    expect(planned.report).toEqual({
      requested_by: 'key:ops',
      requested_at: '2026-12-07T10:00:00.000Z',
      failed_step: 'orders',
      failed_attempt: 1,
      scope: 'step',
      steps: ['undo:orders.0:1', 'undo:orders.2:1'],
      cannot_be_undone: [
        {
          step: 'orders',
          call_id: 'mail',
          tool: 'send_email',
          version: '1.0.0',
          reason: 'send_email@1.0.0 declares no compensation',
        },
      ],
    });
  });

  it('with scope run, takes the earlier steps too, and leaves readonly calls out', () => {
    const planned = planCompensation(steps, { ...request, scope: 'run' }, toolOf);
    expect(planned.steps.map((step) => step.compensates.call_id)).toEqual(['a', 'c', 's0']);
    expect(planned.report.cannot_be_undone.map((call) => call.call_id)).toEqual(['mail']);
  });

  it('skips calls a compensation already covers, and names a tool version that is gone', () => {
    const undone = stepRow({
      name: 'undo:orders.0:1',
      status: 'succeeded',
      position: 2,
      compensates: { step: 'orders', call_id: 'a', tool: 'create_order', version: '1.0.0' },
    });
    const planned = planCompensation([...steps, { step: undone, calls: [] }], request, (row) =>
      row.toolName === 'send_email' ? undefined : toolOf(row),
    );
    expect(planned.steps.map((step) => step.compensates.call_id)).toEqual(['c']);
    expect(planned.report.cannot_be_undone).toEqual([
      expect.objectContaining({ call_id: 'mail', reason: 'send_email@1.0.0 is gone' }),
    ]);
  });

  it('cannot undo a write whose result lacks what the compensation reads', () => {
    const odd = callRow({
      id: 'odd',
      toolName: 'create_order',
      result: { ok: true, data: { queued: true } },
    });
    const planned = planCompensation([{ step: failed, calls: [odd] }], request, toolOf);
    expect(planned.steps).toEqual([]);
    expect(planned.report.cannot_be_undone[0]?.reason).toContain('/result/order_id');
  });
});

describe('what a retry keeps', () => {
  it('counts a call in effect while it succeeded and no compensation undid it', () => {
    const a = order('a', 1);
    const pending = stepRow({
      name: 'undo:x',
      status: 'running',
      compensates: { step: 'orders', call_id: 'a', tool: 'create_order', version: '1.0.0' },
    });
    const byCall = compensationsByCall([{ step: pending, calls: [] }]);
    expect(isInEffect(a, byCall)).toBe(true);
    expect(
      isInEffect(
        a,
        compensationsByCall([{ step: { ...pending, status: 'succeeded' }, calls: [] }]),
      ),
    ).toBe(false);
    expect(isInEffect(order('b', 1, 'failed'), new Map())).toBe(false);
    expect(
      compensationsByCall([{ step: { ...pending, status: 'cancelled' }, calls: [] }]).size,
    ).toBe(0);
  });

  it("reads each call's standing attempt, the step's own when none is kept", () => {
    const step = stepRow({ name: 's', attempt: 3, callAttempts: [2, 3, 2] });
    expect([0, 1, 2, 3].map((index) => callAttemptOf(step, index))).toEqual([2, 3, 2, 3]);
    expect(callAttemptOf(stepRow({ name: 't', attempt: 2 }), 0)).toBe(2);
  });
});
