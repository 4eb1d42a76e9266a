import type { PlanStep } from '@toolgate/contract';
import type { ProblemIssue } from '../problem/tool.exception';
import { findStepReferences } from './step-references';

/** A step the run already completed: a new plan may depend on it and reference its calls. */
export interface CompletedStep {
  name: string;
  calls: number;
}

/**
 * The problems of a plan, each addressed into the request body; empty when it can run. A plan
 * may depend on (and reference) its own steps and the run's completed ones; a reference must name
 * a completed step or one the referring step depends on, directly or through others, so its
 * result is there first.
 */
export function findPlanProblems(
  steps: readonly PlanStep[],
  completed: readonly CompletedStep[],
): ProblemIssue[] {
  const issues: ProblemIssue[] = [];
  // A completed step's results are there already: referencing one needs no dependency.
  const done = new Set(completed.map((step) => step.name));
  const byName = new Map<string, { calls: number; dependsOn: readonly string[] }>();
  for (const step of completed) byName.set(step.name, { calls: step.calls, dependsOn: [] });
  const planned = new Set<string>();
  steps.forEach((step, index) => {
    if (planned.has(step.name)) {
      issues.push({ path: `/body/steps/${index}/name`, message: `"${step.name}" names two steps` });
    }
    planned.add(step.name);
    byName.set(step.name, { calls: step.calls.length, dependsOn: step.depends_on });
  });
  steps.forEach((step, index) => {
    step.depends_on.forEach((dependency, position) => {
      if (!byName.has(dependency)) {
        issues.push({
          path: `/body/steps/${index}/depends_on/${position}`,
          message: `no step is named "${dependency}"`,
        });
      }
    });
  });
  for (const cycle of findCycles(steps)) {
    issues.push({
      path: `/body/steps/${cycle.index}/depends_on`,
      message: `steps depend on each other in a cycle: ${cycle.names.join(' -> ')}`,
    });
  }
  if (issues.length > 0) return issues;
  const ancestors = (name: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [...(byName.get(name)?.dependsOn ?? [])];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(byName.get(next)?.dependsOn ?? []));
    }
    return seen;
  };
  steps.forEach((step, index) => {
    const reachable = ancestors(step.name);
    step.calls.forEach((call, callIndex) => {
      for (const { path, reference } of findStepReferences(call.arguments)) {
        const { step: target, call: targetCall } = reference.$ref;
        const at = `/body/steps/${index}/calls/${callIndex}/arguments${path}`;
        const known = byName.get(target);
        if (known === undefined) {
          issues.push({ path: at, message: `references "${target}", which is no step` });
        } else if (!reachable.has(target) && !done.has(target)) {
          issues.push({
            path: at,
            message: `references "${target}", which "${step.name}" does not depend on`,
          });
        } else if (targetCall >= known.calls) {
          issues.push({
            path: at,
            message: `references call ${targetCall} of "${target}", which has ${known.calls}`,
          });
        }
      }
    });
  });
  return issues;
}

/** One cycle per strongly connected set of steps, named from the first step that closes it. */
function findCycles(steps: readonly PlanStep[]): Array<{ index: number; names: string[] }> {
  const index = new Map(steps.map((step, position) => [step.name, position]));
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: Array<{ index: number; names: string[] }> = [];
  const visit = (name: string, path: string[]): void => {
    const position = index.get(name);
    if (position === undefined || state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      cycles.push({ index: position, names: [...path.slice(path.indexOf(name)), name] });
      return;
    }
    state.set(name, 'visiting');
    for (const dependency of steps[position]?.depends_on ?? []) visit(dependency, [...path, name]);
    state.set(name, 'done');
  };
  for (const step of steps) visit(step.name, []);
  return cycles;
}
