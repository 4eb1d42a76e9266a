import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';

/** Most a budget may be set to, in US dollars (a typo's extra zeros are refused, not stored). */
export const MAX_BUDGET_USD = 1_000_000_000;

export const BudgetScopeSchema = z.enum(['team', 'key']).meta({
  description: "Whose spend the budget limits: a team's calls (`team`) or one API key's (`key`).",
});
export type BudgetScope = z.infer<typeof BudgetScopeSchema>;

export const BudgetPeriodSchema = z.enum(['day', 'month']).meta({
  description: 'The UTC calendar day or month spend is counted over; it starts from zero at each.',
});
export type BudgetPeriod = z.infer<typeof BudgetPeriodSchema>;

export const BudgetStateSchema = z.enum(['ok', 'soft_exceeded', 'hard_exceeded']).meta({
  description:
    '`ok` under both limits; `soft_exceeded` from the soft limit on (calls run, with a warning); `hard_exceeded` from the hard limit on (calls are refused with `budget_exceeded`).',
});
export type BudgetState = z.infer<typeof BudgetStateSchema>;

/** The budget a path names: whose, and over which period. */
export const BudgetParamsSchema = z.strictObject({
  scope: BudgetScopeSchema,
  subjectId: z
    .uuid()
    .meta({ description: "The team's id (scope `team`) or the API key's id (scope `key`)." }),
  period: BudgetPeriodSchema,
});
export type BudgetParams = z.output<typeof BudgetParamsSchema>;

const AmountSchema = z.number().min(0).max(MAX_BUDGET_USD);

export const PutBudgetSchema = z
  .strictObject({
    soft_usd: AmountSchema.nullable().meta({
      description:
        'From this spend on calls run with a warning (`_meta.toolgate.budget`, the `Toolgate-Budget` header); null for none.',
    }),
    hard_usd: AmountSchema.nullable().meta({
      description:
        'From this spend on calls are refused before they run (`budget_exceeded`); null for none.',
    }),
  })
  .refine((body) => body.soft_usd !== null || body.hard_usd !== null, {
    message: 'set soft_usd, hard_usd or both',
    path: ['hard_usd'],
  })
  .refine(
    (body) => body.soft_usd === null || body.hard_usd === null || body.soft_usd <= body.hard_usd,
    { message: 'must not be above hard_usd', path: ['soft_usd'] },
  );
export type PutBudgetRequest = z.input<typeof PutBudgetSchema>;
export type PutBudgetInput = z.output<typeof PutBudgetSchema>;

export const BudgetSchema = z
  .object({
    scope: BudgetScopeSchema,
    subject_id: z.uuid(),
    team_id: z.uuid().meta({ description: 'The team, or the team of the key.' }),
    period: BudgetPeriodSchema,
    soft_usd: z.number().nullable(),
    hard_usd: z.number().nullable(),
    spent_usd: z.number().meta({
      description: 'What the team or key has spent in the current period, in US dollars.',
    }),
    state: BudgetStateSchema,
    resets_at: TimestampSchema.meta({ description: 'When the current period ends.' }),
    created_by: z.string(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Budget' });
export type Budget = z.infer<typeof BudgetSchema>;

export const BudgetListSchema = z
  .object({ items: z.array(BudgetSchema) })
  .meta({ id: 'BudgetList' });
export type BudgetList = z.infer<typeof BudgetListSchema>;

/** `?team_id=` names the team for callers that span teams; a team key lists its own team's. */
export const BudgetListQuerySchema = z.strictObject({
  team_id: z.uuid().optional().meta({
    description:
      "The team whose budgets (its own and its keys') to list, for callers spanning teams; without it they list every team's.",
  }),
});
export type BudgetListQuery = z.output<typeof BudgetListQuerySchema>;
