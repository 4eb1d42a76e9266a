import type { ToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { getAdapter } from '../../get-adapter';
import { PROVIDERS } from '../provider';
import { buildToolNameMap, toWireName } from './tool-name-map';

function toolNamed(name: string): ToolIR {
  return {
    schema_version: '1.0',
    id: `00000000-0000-4000-8000-${String(name.length).padStart(12, '0')}`,
    name,
    version: '1.0.0',
    description: `The ${name} tool.`,
    parameters: { type: 'object', properties: { query: { type: 'string' } } },
    behavior: {
      readonly: true,
      destructive: false,
      idempotent: true,
      open_world: true,
      requires_approval: 'never',
    },
    constraints: { timeout_ms: 1000, max_retries: 0 },
  };
}

function definitionName(definition: unknown): string | undefined {
  if (typeof definition !== 'object' || definition === null) return undefined;
  const record = definition as { name?: unknown; function?: { name?: unknown } };
  const name = record.function?.name ?? record.name;
  return typeof name === 'string' ? name : undefined;
}

// The registry resolves a model's call by indexing the catalog with `toWireName`; that only works
// while every adapter sends exactly `toWireName(name)`, whatever the other tools of the request.
describe('toWireName is the name every adapter sends', () => {
  const names = [
    'orders.refund',
    'get weather!',
    'orders_refund',
    'admin/tools/list',
    'x'.repeat(80),
  ];

  it.each(PROVIDERS)('%s: definitions, report and call mapping agree with it', (provider) => {
    const tools = names.map(toolNamed);
    const adapter = getAdapter(provider);
    const { definitions, report } = adapter.toolsToWire(tools);
    const expected = names.map((name) => toWireName(name, provider));
    expect(definitions.map(definitionName)).toEqual(expected);
    expect(report.names).toEqual(names.map((name, index) => ({ name, wireName: expected[index] })));
    // Alone, a tool gets the same wire name as beside the others: the name depends on it only.
    for (const [index, tool] of tools.entries()) {
      expect(definitionName(adapter.toolsToWire([tool]).definitions[0])).toBe(expected[index]);
    }
    // And a call under that wire name maps back to the tool, given only that tool.
    for (const [index, tool] of tools.entries()) {
      const map = buildToolNameMap([tool], provider);
      expect(map.fromWire.get(expected[index] ?? '')).toBe(tool.name);
    }
  });

  it('gives names that sanitize alike different wire names, and throws on a true collision', () => {
    const alike = ['orders.refund', 'orders/refund', 'orders refund', 'orders_refund'];
    for (const provider of PROVIDERS) {
      const wireNames = alike.map((name) => toWireName(name, provider));
      expect(new Set(wireNames).size, provider).toBe(alike.length);
    }
    const literal = toWireName('orders.refund', 'openai-chat');
    expect(() =>
      buildToolNameMap([toolNamed('orders.refund'), toolNamed(literal)], 'openai-chat'),
    ).toThrow(expect.objectContaining({ code: 'name_collision' }));
  });
});
