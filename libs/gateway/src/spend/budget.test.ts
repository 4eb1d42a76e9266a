import { describe, expect, it } from 'vitest';
import { budgetStateOf, periodWindow } from './budget';

describe('periodWindow', () => {
  it('names the UTC day and resets at the next UTC midnight', () => {
    const window = periodWindow('day', Date.parse('2026-12-31T23:59:59.999Z'));
    expect(window).toEqual({ id: '2026-12-31', resetsAt: new Date('2027-01-01T00:00:00.000Z') });
  });

  it('names the UTC month and resets on the first of the next one', () => {
    const window = periodWindow('month', Date.parse('2026-02-14T08:00:00Z'));
    expect(window).toEqual({ id: '2026-02', resetsAt: new Date('2026-03-01T00:00:00.000Z') });
  });
});

describe('budgetStateOf', () => {
  const budget = { softUsd: 1, hardUsd: 2 };

  it('is ok under the soft limit, soft_exceeded from it, hard_exceeded from the hard one', () => {
    expect(budgetStateOf(budget, 0.999999)).toBe('ok');
    expect(budgetStateOf(budget, 1)).toBe('soft_exceeded');
    expect(budgetStateOf(budget, 1.999999)).toBe('soft_exceeded');
    expect(budgetStateOf(budget, 2)).toBe('hard_exceeded');
  });

  it('compares in micro-dollars, so float sums that land on the limit reach it', () => {
    // 0.1 + 0.2 is 0.30000000000000004 as a float and 0.3 is below it.
    expect(budgetStateOf({ softUsd: null, hardUsd: 0.3 }, 0.1 + 0.2)).toBe('hard_exceeded');
  });

  it('leaves out a limit that is not set', () => {
    expect(budgetStateOf({ softUsd: null, hardUsd: 5 }, 4)).toBe('ok');
    expect(budgetStateOf({ softUsd: 3, hardUsd: null }, 400)).toBe('soft_exceeded');
  });
});
