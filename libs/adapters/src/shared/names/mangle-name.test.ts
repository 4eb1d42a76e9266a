import { describe, expect, it } from 'vitest';
import { mangleName } from './mangle-name';
import { PROVIDER_LIMITS } from '../provider-limits/provider-limits';
import { satisfiesRules } from './name-rules';
import { toWireCallId } from './call-id';

describe('mangleName', () => {
  it('keeps valid names and rewrites invalid ones deterministically, distinct originals staying distinct', () => {
    const rules = PROVIDER_LIMITS['openai-chat'].toolName;
    expect(mangleName('get_weather', rules)).toBe('get_weather');
    const dotted = mangleName('admin.tools.list', rules);
    expect(dotted).toMatch(/^admin_tools_list_[0-9a-f]{8}$/);
    expect(mangleName('admin.tools.list', rules)).toBe(dotted);
    expect(mangleName('admin/tools/list', rules)).not.toBe(dotted);
  });

  it.each(
    Object.entries(PROVIDER_LIMITS).map(
      ([provider, limits]) => [provider, limits.toolName] as const,
    ),
  )('%s: the result always satisfies the rules', (_provider, rules) => {
    for (const name of [
      'a b',
      'x'.repeat(300),
      '9lives',
      '-dash',
      '日本語',
      '__proto__',
      'a:b.c',
      '',
    ]) {
      expect(satisfiesRules(mangleName(name, rules), rules)).toBe(true);
    }
  });

  it('fits call ids per wire and leaves unconstrained wires alone', () => {
    expect(toWireCallId('toolu_01A', 'anthropic')).toBe('toolu_01A');
    expect(toWireCallId('functions.write:0', 'anthropic')).toMatch(
      /^functions_write_0_[0-9a-f]{8}$/,
    );
    expect(toWireCallId('functions.write:0', 'openai-chat')).toBe('functions.write:0');
    expect(toWireCallId('x'.repeat(70), 'openai-responses')).toHaveLength(64);
  });
});
