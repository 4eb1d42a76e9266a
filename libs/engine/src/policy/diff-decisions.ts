import { CedarPolicyEngine } from './cedar-policy-engine';
import type { PolicyDecision, PolicyInput } from './policy-engine';

/** A sample input whose decision would change with the new policies. */
export interface DecisionChange {
  /** Position of the input in the samples. */
  index: number;
  input: PolicyInput;
  before: PolicyDecision;
  after: PolicyDecision;
}

/**
 * Dry run of a policy change: decides every sample with the old and the new policy text and lists
 * the inputs whose effect or reason would change. Throws when either text is invalid.
 */
export function diffDecisions(
  oldPolicies: string,
  newPolicies: string,
  sampleInputs: readonly PolicyInput[],
): DecisionChange[] {
  const before = new CedarPolicyEngine(oldPolicies);
  const after = new CedarPolicyEngine(newPolicies);
  const changes: DecisionChange[] = [];
  sampleInputs.forEach((input, index) => {
    const old = before.decideNow(input);
    const next = after.decideNow(input);
    if (old.effect !== next.effect || old.reason !== next.reason) {
      changes.push({ index, input, before: old, after: next });
    }
  });
  return changes;
}
