import type { EngineToolResult } from '@toolgate/engine';
import { callCostOf, type CallOutcome, type CallRecord } from '@toolgate/persistence';
import {
  budgetStateOf,
  microsToUsd,
  periodWindow,
  usdToMicros,
  type Budget,
  type BudgetPeriod,
  type BudgetScope,
  type SpendSubject,
} from './budget';
import type { SpendCounters } from './spend-counters';

/** Who a call's spend is counted against: its team and its API key. */
export interface BudgetCaller {
  team: string;
  key_id: string;
}

/**
 * A budget past one of its limits, as a refusal's `details` and a warning's `_meta.toolgate.budget`
 * say it: which budget, the limit passed, the spend, and when the period resets.
 */
export interface BudgetBreach {
  state: 'soft_exceeded' | 'hard_exceeded';
  scope: BudgetScope;
  period: BudgetPeriod;
  /** The limit passed, in US dollars (the hard one for `hard_exceeded`). */
  limit: number;
  /** What was spent in the period, in US dollars. */
  spent: number;
  resets_at: string;
}

/** What a call may do before it runs: be refused (a hard budget is spent), or run, maybe warned. */
export type BudgetAdmission =
  { kind: 'refused'; breach: BudgetBreach } | { kind: 'admitted'; breach?: BudgetBreach };

/**
 * The amount a finished call is counted with against its budgets, in US dollars: the one input of
 * spend counting. It is the call's whole cost as `callCostOf` reads it, the tool's own cost
 * (reported by its upstream, else the version's estimate; none when no executor ran) plus its share
 * of the turn's token cost; a part that is not known counts as nothing.
 */
export function callCostUsd(input: {
  record: Pick<CallRecord, 'provider' | 'token_cost'>;
  outcome: Pick<CallOutcome, 'tool_cost'>;
}): number {
  const cost = callCostOf({
    provider: input.record.provider ?? '',
    tokenCost: input.record.token_cost ?? null,
    toolCost: input.outcome.tool_cost ?? null,
  });
  return cost.total_usd ?? 0;
}

/** The result with the breach noted at `_meta.toolgate.budget`, beside what `_meta` held. */
export function withBudgetNote(result: EngineToolResult, breach: BudgetBreach): EngineToolResult {
  const meta = result._meta ?? {};
  const toolgate = meta['toolgate'];
  const notes = typeof toolgate === 'object' && toolgate !== null ? toolgate : {};
  return { ...result, _meta: { ...meta, toolgate: { ...notes, budget: breach } } };
}

/** The `budget_exceeded` result of a call refused before it ran; its message tells the model what to do. */
export function budgetRefusal(
  call: { call_id: string; name: string },
  breach: BudgetBreach,
): EngineToolResult {
  const owner = breach.scope === 'team' ? "The team's" : "This API key's";
  const period = breach.period === 'day' ? 'daily' : 'monthly';
  return {
    ...call,
    ok: false,
    error: {
      code: 'budget_exceeded',
      message:
        `Not run: ${owner} ${period} budget of $${breach.limit.toFixed(2)} is spent ` +
        `($${breach.spent.toFixed(2)} so far); it resets at ${breach.resets_at}. ` +
        'Tools that cost money are refused until then: answer without them, or tell the user.',
      retryable: false,
      details: {
        scope: breach.scope,
        period: breach.period,
        limit: breach.limit,
        spent: breach.spent,
        resets_at: breach.resets_at,
      },
    },
  };
}

/** Dependencies of `CallBudgets`. */
export interface CallBudgetsDeps {
  counters: SpendCounters;
  /** A team's budgets (its own and its keys'), from memory: the catalog, cleared on changes. */
  budgetsOf: (teamId: string) => Promise<readonly Budget[]>;
  now?: () => number;
}

const SEVERITY = { hard_exceeded: 2, soft_exceeded: 1, ok: 0 } as const;

/**
 * Budgets on the call path, the same in every process that runs calls: `admit` before a call runs
 * (a call over a hard budget is refused) and `recordSpend` after it, the one place a finished
 * call's cost is counted against its team's and key's day and month. Budgets come from memory;
 * spend is read only for calls that have a budget, in one read of the counters (Redis MGET on the
 * real stack), and counted in one write for calls that cost something.
 */
export class CallBudgets {
  private readonly counters: SpendCounters;
  private readonly budgetsOf: (teamId: string) => Promise<readonly Budget[]>;
  private readonly now: () => number;

  constructor(deps: CallBudgetsDeps) {
    this.counters = deps.counters;
    this.budgetsOf = deps.budgetsOf;
    this.now = deps.now ?? Date.now;
  }

  /** Whether the caller may run a call now: refused once a hard budget of its team or key is spent. */
  async admit(caller: BudgetCaller): Promise<BudgetAdmission> {
    const budgets = await this.applicable(caller);
    if (budgets.length === 0) return { kind: 'admitted' };
    const at = this.now();
    const spent = await this.counters.read({ subjects: budgets, at });
    const breach = worstBreach(budgets, spent, at);
    if (breach?.state === 'hard_exceeded') return { kind: 'refused', breach };
    return breach === undefined ? { kind: 'admitted' } : { kind: 'admitted', breach };
  }

  /**
   * Counts a finished call's cost against its team's and key's counters of the current day and
   * month; returns the worst breach of the caller's budgets after it, if any.
   */
  async recordSpend(input: {
    caller: BudgetCaller;
    amountUsd: number;
  }): Promise<BudgetBreach | undefined> {
    const micros = usdToMicros(input.amountUsd);
    if (micros <= 0) return undefined;
    const at = this.now();
    const subjects = subjectsOf(input.caller);
    const totals = await this.counters.add({ subjects, micros, at });
    const budgets = await this.applicable(input.caller);
    const byKey = new Map(subjects.map((subject, index) => [subjectKey(subject), totals[index]]));
    return worstBreach(
      budgets,
      budgets.map((budget) => byKey.get(subjectKey(budget)) ?? 0),
      at,
    );
  }

  private async applicable(caller: BudgetCaller): Promise<Budget[]> {
    const budgets = await this.budgetsOf(caller.team);
    return budgets.filter((budget) =>
      budget.scope === 'team'
        ? budget.subjectId === caller.team
        : budget.subjectId === caller.key_id,
    );
  }
}

/** The four counters a call's spend goes to: its team's and its key's, per day and per month. */
function subjectsOf(caller: BudgetCaller): SpendSubject[] {
  return (['day', 'month'] as const).flatMap((period) => [
    { scope: 'team' as const, subjectId: caller.team, period },
    { scope: 'key' as const, subjectId: caller.key_id, period },
  ]);
}

function subjectKey(subject: SpendSubject): string {
  return `${subject.scope}:${subject.subjectId}:${subject.period}`;
}

/** The most severe breach among budgets with these spends (micro-dollars, in budget order). */
function worstBreach(
  budgets: readonly Budget[],
  spentMicros: readonly number[],
  at: number,
): BudgetBreach | undefined {
  let worst: BudgetBreach | undefined;
  budgets.forEach((budget, index) => {
    const spent = microsToUsd(spentMicros[index] ?? 0);
    const state = budgetStateOf(budget, spent);
    if (state === 'ok') return;
    if (worst !== undefined && SEVERITY[worst.state] >= SEVERITY[state]) return;
    const limit = state === 'hard_exceeded' ? budget.hardUsd : budget.softUsd;
    worst = {
      state,
      scope: budget.scope,
      period: budget.period,
      limit: limit ?? 0,
      spent,
      resets_at: periodWindow(budget.period, at).resetsAt.toISOString(),
    };
  });
  return worst;
}
