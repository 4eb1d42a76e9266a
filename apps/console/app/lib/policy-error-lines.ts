import type { Problem } from '@toolgate/contract';
import { z } from 'zod';

// The `invalid_policy` problem's `policy_errors` extension: where the Cedar parser stopped.
const PolicyErrorsSchema = z.array(z.looseObject({ line: z.number().int().min(1).optional() }));

/** The 1-based lines of the policy text an `invalid_policy` problem points at (none for others). */
export function policyErrorLines(problem: Problem): ReadonlySet<number> {
  const parsed = PolicyErrorsSchema.safeParse(problem['policy_errors']);
  if (!parsed.success) return new Set();
  return new Set(parsed.data.flatMap((error) => (error.line === undefined ? [] : [error.line])));
}
