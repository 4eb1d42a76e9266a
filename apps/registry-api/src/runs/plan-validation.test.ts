import type { PlanStep } from '@toolgate/contract';
import { describe, expect, it } from 'vitest';
import { findPlanProblems } from './plan-validation';

function step(
  name: string,
  dependsOn: string[] = [],
  args: Record<string, unknown> = {},
): PlanStep {
  return { name, depends_on: dependsOn, calls: [{ tool: 't', arguments: args }] };
}
const ref = (target: string, call = 0) => ({ $ref: { step: target, call, pointer: '/result' } });

describe('findPlanProblems', () => {
  it('accepts a plan whose references follow its dependencies, through other steps too', () => {
    expect(
      findPlanProblems(
        [step('a'), step('b', ['a']), step('c', ['b'], { x: ref('a'), y: ref('done') })],
        [{ name: 'done', calls: 1 }],
      ),
    ).toEqual([]);
  });

  it('reports duplicate names, unknown dependencies and cycles', () => {
    expect(
      findPlanProblems(
        [step('a'), step('a'), step('b', ['zz']), step('c', ['d']), step('d', ['c'])],
        [],
      ),
    ).toEqual([
      { path: '/body/steps/1/name', message: '"a" names two steps' },
      { path: '/body/steps/2/depends_on/0', message: 'no step is named "zz"' },
      {
        path: '/body/steps/3/depends_on',
        message: 'steps depend on each other in a cycle: c -> d -> c',
      },
    ]);
  });

  it('reports references to steps not waited for, to no step, and to calls a step does not have', () => {
    expect(
      findPlanProblems(
        [
          step('a'),
          step('b', [], { x: ref('a') }),
          step('c', ['a'], { y: ref('nope'), z: ref('a', 2) }),
        ],
        [],
      ),
    ).toEqual([
      {
        path: '/body/steps/1/calls/0/arguments/x',
        message: 'references "a", which "b" does not depend on',
      },
      { path: '/body/steps/2/calls/0/arguments/y', message: 'references "nope", which is no step' },
      {
        path: '/body/steps/2/calls/0/arguments/z',
        message: 'references call 2 of "a", which has 1',
      },
    ]);
  });
});
