import { PROVIDERS, toWireName } from '@toolgate/adapters';
import { describe, expect, it } from 'vitest';
import type { SqlPort, SqlStatement } from '../sql/sql-port';
import { GatewayCatalog } from './gateway-catalog';

interface ToolRow {
  id: string;
  name: string;
  teamId: string;
  visibility?: 'private' | 'public';
}

/** The catalog's two queries answered from fixed tools (all released at 1.0.0), each counted. */
function portWith(tools: readonly ToolRow[]): SqlPort & { asked: string[] } {
  const asked: string[] = [];
  const rowOf = (tool: ToolRow): Record<string, unknown> => ({
    id: tool.id,
    name: tool.name,
    team_id: tool.teamId,
    visibility: tool.visibility ?? 'private',
    stable_version: '1.0.0',
    canary_version: null,
    canary_percent: 0,
    has_release: true,
    version: '1.0.0',
    status: 'published',
    deprecated_at: null,
    sunset_at: null,
    ir: { name: tool.name, version: '1.0.0', description: tool.id },
  });
  return {
    kind: 'pglite',
    asked,
    query<TRow extends Record<string, unknown>>(
      statement: SqlStatement,
      params: readonly unknown[],
    ) {
      asked.push(statement.name ?? statement.text);
      let rows: Record<string, unknown>[];
      if (statement.name === 'catalog.tool_names') {
        rows = [...new Set(tools.map((tool) => tool.name))].map((name) => ({ name }));
      } else if (statement.name === 'catalog.tools_by_name') {
        const wanted = new Set(params[0] as string[]);
        rows = tools.filter((tool) => wanted.has(tool.name)).map(rowOf);
      } else {
        throw new Error(`unexpected statement ${statement.name ?? statement.text}`);
      }
      return Promise.resolve({ rows: rows as TRow[], rowCount: rows.length });
    },
  };
}

const refund = { id: 'refund', name: 'orders.refund', teamId: 't1' };
const weather = { id: 'weather', name: 'get weather!', teamId: 't1' };

describe('GatewayCatalog.callableByWireName', () => {
  it.each(PROVIDERS)(
    '%s: finds each tool by the wire name the adapters give it, and by its own name',
    async (provider) => {
      const catalog = new GatewayCatalog(portWith([refund, weather]));
      const wireNames = [refund, weather].map((tool) => toWireName(tool.name, provider));
      const matches = await catalog.callableByWireName(
        provider,
        [...wireNames, 'orders.refund', 'nothing_here'],
        't1',
      );
      expect(matches.get(wireNames[0] ?? '')).toMatchObject({
        kind: 'tool',
        tool: { id: 'refund' },
      });
      expect(matches.get(wireNames[1] ?? '')).toMatchObject({
        kind: 'tool',
        tool: { id: 'weather' },
      });
      expect(matches.get('orders.refund')).toMatchObject({ kind: 'tool', tool: { id: 'refund' } });
      expect(matches.has('nothing_here')).toBe(false);
    },
  );

  it('keeps tools whose names sanitize alike apart: each has its own wire name', async () => {
    const tools = [
      { id: 'dot', name: 'orders.refund', teamId: 't1' },
      { id: 'slash', name: 'orders/refund', teamId: 't1' },
      { id: 'space', name: 'orders refund', teamId: 't1' },
      { id: 'plain', name: 'orders_refund', teamId: 't1' },
    ];
    const catalog = new GatewayCatalog(portWith(tools));
    const wireNames = tools.map((tool) => toWireName(tool.name, 'openai-chat'));
    expect(new Set(wireNames).size).toBe(tools.length);
    const matches = await catalog.callableByWireName('openai-chat', wireNames, 't1');
    expect(wireNames.map((name) => matches.get(name))).toEqual(
      tools.map((tool) => ({ kind: 'tool', tool: expect.objectContaining({ id: tool.id }) })),
    );
  });

  it('reports a wire name that two callable tools share as ambiguous, never picks one', async () => {
    const wireName = toWireName('orders.refund', 'openai-chat');
    const literal = { id: 'literal', name: wireName, teamId: 't1' };
    const catalog = new GatewayCatalog(portWith([refund, literal]));
    const match = (await catalog.callableByWireName('openai-chat', [wireName], 't1')).get(wireName);
    expect(match?.kind).toBe('ambiguous');
    expect(match?.kind === 'ambiguous' ? match.tools.map((tool) => tool.id).sort() : []).toEqual([
      'literal',
      'refund',
    ]);
    // Another team's private tool is no candidate: for t2 the name means only its own tool.
    const mine = { id: 'mine', name: 'orders.refund', teamId: 't2' };
    const scoped = new GatewayCatalog(portWith([mine, literal]));
    expect(
      (await scoped.callableByWireName('openai-chat', [wireName], 't2')).get(wireName),
    ).toEqual({ kind: 'tool', tool: expect.objectContaining({ id: 'mine' }) });
  });

  it('builds the index once per catalog load, not per call', async () => {
    let now = 0;
    const port = portWith([refund, weather]);
    const catalog = new GatewayCatalog(port, { maxAgeMs: 1_000, now: () => now });
    const wireName = toWireName('orders.refund', 'anthropic');
    for (let turn = 0; turn < 5; turn += 1) {
      await catalog.callableByWireName('anthropic', [wireName], 't1');
      await catalog.callableByWireName('gemini', ['get_weather'], 't1');
    }
    expect(port.asked.filter((name) => name === 'catalog.tool_names')).toHaveLength(1);
    catalog.invalidate();
    await catalog.callableByWireName('anthropic', [wireName], 't1');
    expect(port.asked.filter((name) => name === 'catalog.tool_names')).toHaveLength(2);
    now = 1_500;
    await catalog.callableByWireName('anthropic', [wireName], 't1');
    expect(port.asked.filter((name) => name === 'catalog.tool_names')).toHaveLength(3);
  });
});
