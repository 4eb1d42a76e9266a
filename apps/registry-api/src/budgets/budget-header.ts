import type { ToolResultIR } from '@toolgate/toolir';
import { z } from 'zod';

/** The response header of POST /v1/calls naming a budget past a limit (RFC 8941-style parameters). */
export const BUDGET_HEADER = 'Toolgate-Budget';

// What the call path writes at `_meta.toolgate.budget` (a soft budget spent) or in a refusal's
// `details` (`budget_exceeded`); stored results are read back through it, never cast.
const BudgetNoteSchema = z.object({
  state: z.enum(['soft_exceeded', 'hard_exceeded']).optional(),
  scope: z.enum(['team', 'key']),
  period: z.enum(['day', 'month']),
});
type BudgetNote = z.infer<typeof BudgetNoteSchema>;

function noteOf(result: ToolResultIR): Required<BudgetNote> | undefined {
  if (result.error?.code === 'budget_exceeded') {
    const details = BudgetNoteSchema.safeParse(result.error.details);
    return details.success ? { ...details.data, state: 'hard_exceeded' } : undefined;
  }
  const toolgate = z.object({ budget: BudgetNoteSchema }).safeParse(result._meta?.['toolgate']);
  if (!toolgate.success) return undefined;
  const { budget } = toolgate.data;
  return { ...budget, state: budget.state ?? 'soft_exceeded' };
}

/**
 * `Toolgate-Budget: soft_exceeded; scope=team; period=day` for the worst budget breach the
 * results note (a refusal over a hard budget wins over a warning); no header when none does.
 */
export function budgetHeaderOf(results: readonly ToolResultIR[]): Record<string, string> {
  let worst: Required<BudgetNote> | undefined;
  for (const result of results) {
    const note = noteOf(result);
    if (note === undefined) continue;
    if (worst === undefined || (worst.state === 'soft_exceeded' && note.state === 'hard_exceeded'))
      worst = note;
  }
  if (worst === undefined) return {};
  return { [BUDGET_HEADER]: `${worst.state}; scope=${worst.scope}; period=${worst.period}` };
}
