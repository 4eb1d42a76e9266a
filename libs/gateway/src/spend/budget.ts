/** Whose spend a budget limits: a whole team's calls, or one API key's. */
export type BudgetScope = 'team' | 'key';
/** The UTC calendar period a budget's spend is counted over. */
export type BudgetPeriod = 'day' | 'month';
/** Where a budget stands: under its limits, past its soft limit (warned), past its hard one (refused). */
export type BudgetState = 'ok' | 'soft_exceeded' | 'hard_exceeded';

export const BUDGET_SCOPES: readonly BudgetScope[] = ['team', 'key'];
export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['day', 'month'];

/** A spending limit as the call path reads it (from the catalog in memory). */
export interface Budget {
  scope: BudgetScope;
  /** The team's id for a team budget, the API key's id for a key budget. */
  subjectId: string;
  period: BudgetPeriod;
  /** Past this many US dollars calls still run, with a warning; null for none. */
  softUsd: number | null;
  /** Past this many US dollars calls are refused with `budget_exceeded`; null for none. */
  hardUsd: number | null;
}

/** One counter of spend: a team's or key's, in one period. */
export interface SpendSubject {
  scope: BudgetScope;
  subjectId: string;
  period: BudgetPeriod;
}

/** One period of a budget: its id (`2026-12-07`, `2026-12`) and when the next one starts. */
export interface PeriodWindow {
  id: string;
  resetsAt: Date;
}

/** The UTC day or month `at` falls in. */
export function periodWindow(period: BudgetPeriod, at: number): PeriodWindow {
  const date = new Date(at);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const iso = date.toISOString();
  if (period === 'day') {
    return {
      id: iso.slice(0, 10),
      resetsAt: new Date(Date.UTC(year, month, date.getUTCDate() + 1)),
    };
  }
  return { id: iso.slice(0, 7), resetsAt: new Date(Date.UTC(year, month + 1, 1)) };
}

// Spend is counted in whole micro-dollars, so sums over many calls never drift as floats do.
const MICROS_PER_USD = 1_000_000;

export function usdToMicros(usd: number): number {
  return Math.round(usd * MICROS_PER_USD);
}

export function microsToUsd(micros: number): number {
  return micros / MICROS_PER_USD;
}

/** Where a budget stands with `spentUsd` spent in its period: a hard breach wins over a soft one. */
export function budgetStateOf(
  budget: Pick<Budget, 'softUsd' | 'hardUsd'>,
  spentUsd: number,
): BudgetState {
  const spent = usdToMicros(spentUsd);
  if (budget.hardUsd !== null && spent >= usdToMicros(budget.hardUsd)) return 'hard_exceeded';
  if (budget.softUsd !== null && spent >= usdToMicros(budget.softUsd)) return 'soft_exceeded';
  return 'ok';
}
