import { describe, expect, it } from 'vitest';
import type { SqlPort, SqlStatement } from '../sql/sql-port';
import { GatewayCatalog, toolForTeam, type CatalogTool } from './gateway-catalog';

function tool(input: {
  id: string;
  teamId: string;
  visibility: 'private' | 'public';
}): CatalogTool {
  return { ...input, name: 'search', release: null, versions: [] };
}

/** A query port that answers the tools query from fixed rows and counts what it was asked. */
function portWith(rows: Record<string, unknown>[]): SqlPort & { asked: string[] } {
  const asked: string[] = [];
  return {
    kind: 'pglite',
    asked,
    query<TRow extends Record<string, unknown>>(statement: SqlStatement) {
      asked.push(statement.name ?? statement.text);
      return Promise.resolve({ rows: rows as TRow[], rowCount: rows.length });
    },
  };
}

const ir = (team: string) => ({ name: 'search', version: '1.0.0', description: team });

describe('toolForTeam', () => {
  it("prefers the team's own tool over another team's public tool of that name", () => {
    const own = tool({ id: 'own', teamId: 't1', visibility: 'private' });
    const theirs = tool({ id: 'theirs', teamId: 't2', visibility: 'public' });
    expect(toolForTeam([theirs, own], 't1')?.id).toBe('own');
    expect(toolForTeam([own, theirs], 't1')?.id).toBe('own');
    expect(toolForTeam([theirs], 't1')?.id).toBe('theirs');
  });

  it("never picks another team's private tool", () => {
    expect(toolForTeam([tool({ id: 'x', teamId: 't2', visibility: 'private' })], 't1')).toBe(
      undefined,
    );
  });
});

describe('GatewayCatalog', () => {
  const rows = [
    {
      id: 'theirs',
      name: 'search',
      team_id: 't2',
      visibility: 'public',
      stable_version: '1.0.0',
      canary_version: null,
      canary_percent: 0,
      has_release: true,
      version: '1.0.0',
      status: 'published',
      deprecated_at: null,
      sunset_at: null,
      ir: ir('t2'),
    },
    {
      id: 'own',
      name: 'search',
      team_id: 't1',
      visibility: 'private',
      stable_version: '1.0.0',
      canary_version: null,
      canary_percent: 0,
      has_release: true,
      version: '1.0.0',
      status: 'published',
      deprecated_at: null,
      sunset_at: null,
      ir: ir('t1'),
    },
  ];

  it("resolves a fallback by name to the team's own tool, the same lookup calls use", async () => {
    const catalog = new GatewayCatalog(portWith(rows));
    const fallback = await catalog.resolveTool({
      teamId: 't1',
      name: 'search',
      version: undefined,
    });
    expect(fallback?.description).toBe('t1');
    const other = await catalog.resolveTool({ teamId: 't3', name: 'search', version: undefined });
    expect(other?.description).toBe('t2');
  });

  it('answers from memory until invalidated or past its maximum age', async () => {
    let now = 0;
    const port = portWith(rows);
    const catalog = new GatewayCatalog(port, { maxAgeMs: 1_000, now: () => now });
    await catalog.callableTools(['search'], 't1');
    await catalog.callableTools(['search', 'search'], 't2');
    expect(port.asked).toHaveLength(1);
    catalog.invalidate();
    await catalog.callableTools(['search'], 't1');
    expect(port.asked).toHaveLength(2);
    now = 1_500;
    await catalog.callableTools(['search'], 't1');
    expect(port.asked).toHaveLength(3);
  });
});

describe('GatewayCatalog budgets', () => {
  const budgetRows = [
    { scope: 'team', subject_id: 't1', period: 'day', soft_usd: 1.5, hard_usd: null },
    { scope: 'key', subject_id: 'k1', period: 'month', soft_usd: null, hard_usd: 20 },
  ];

  it("reads a team's budgets once, until the catalog is cleared", async () => {
    const port = portWith(budgetRows);
    const catalog = new GatewayCatalog(port);
    const expected = [
      { scope: 'team', subjectId: 't1', period: 'day', softUsd: 1.5, hardUsd: null },
      { scope: 'key', subjectId: 'k1', period: 'month', softUsd: null, hardUsd: 20 },
    ];
    expect(await catalog.budgetsOf('t1')).toEqual(expected);
    expect(await catalog.budgetsOf('t1')).toEqual(expected);
    expect(port.asked).toEqual(['catalog.budgets']);
    catalog.invalidate();
    await catalog.budgetsOf('t1');
    expect(port.asked).toEqual(['catalog.budgets', 'catalog.budgets']);
  });
});
