import { describe, expect, it } from 'vitest';
import { COMPENSATING_RUN, FAILED_RUN } from './__fixtures__/runs';
import { callsToUndo, canCancel, canCompensate, takesDecision } from './run-view';

const undone = (calls: ReturnType<typeof callsToUndo>) =>
  calls.map(({ step, call }) => `${step.name}/${call.tool}`);

describe('callsToUndo', () => {
  it("takes the step's succeeded calls, or every step's, latest first", () => {
    expect(undone(callsToUndo(FAILED_RUN, 'ship', 'step'))).toEqual(['ship/reserve_stock']);
    expect(undone(callsToUndo(FAILED_RUN, 'ship', 'run'))).toEqual([
      'ship/reserve_stock',
      'charge/send_email',
      'charge/charge_card',
      'find/find_order',
    ]);
  });

  it('leaves out calls a compensation step undid or is undoing, and the compensations themselves', () => {
    expect(undone(callsToUndo(COMPENSATING_RUN, 'ship', 'run'))).toEqual([
      'charge/send_email',
      'find/find_order',
    ]);
  });
});

describe('what a run takes', () => {
  it('cancels until it ended; compensates and decides once stopped', () => {
    expect(canCancel(FAILED_RUN)).toBe(false);
    expect(canCancel(COMPENSATING_RUN)).toBe(true);
    expect(canCompensate(FAILED_RUN)).toBe(true);
    expect(canCompensate({ ...FAILED_RUN, status: 'awaiting_decision' })).toBe(true);
    expect(canCompensate(COMPENSATING_RUN)).toBe(false);
    // A ReAct run is compensated between turns.
    expect(canCompensate({ ...FAILED_RUN, mode: 'react', status: 'running' })).toBe(true);
    expect(canCompensate({ ...FAILED_RUN, status: 'running' })).toBe(false);
  });

  it('stops offering compensation once every completed call is undone', () => {
    const undoneAll = {
      ...FAILED_RUN,
      steps: [
        ...FAILED_RUN.steps,
        ...callsToUndo(FAILED_RUN, null, 'run').map(({ step, call }, index) => ({
          ...step,
          name: `undo:${step.name}.${call.index}:1`,
          kind: 'compensation' as const,
          status: 'succeeded' as const,
          position: 100 + index,
          calls: [],
          compensates: { step: step.name, call_id: call.id, tool: call.tool, version: '1.0.0' },
        })),
      ],
    };
    expect(callsToUndo(undoneAll, null, 'run')).toEqual([]);
    expect(canCompensate(undoneAll)).toBe(false);
    expect(FAILED_RUN.steps.filter((step) => takesDecision(FAILED_RUN, step))).toHaveLength(1);
  });
});
