import { describe, expect, it } from 'vitest';
import { AdapterError, parseToolSearches, type ToolAdapter } from '../src/index';
import anthropicSearches from '../src/tool-search/__fixtures__/anthropic-tool-search.json';
import responsesSearches from '../src/tool-search/__fixtures__/openai-responses-tool-search.json';
import { ALL_ADAPTERS, validPayloads } from './support/payloads';

/** mulberry32: a small seeded PRNG, so every failure is reproducible from its seed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

type Container = Record<string, unknown> | unknown[];

function containers(value: unknown, found: Container[] = []): Container[] {
  if (typeof value !== 'object' || value === null) return found;
  found.push(value as Container);
  for (const child of Object.values(value)) containers(child, found);
  return found;
}

const REPLACEMENTS: unknown[] = [
  null,
  undefined,
  0,
  -1,
  1.5,
  '',
  'x',
  '{"a":',
  true,
  [],
  {},
  [null],
  { type: 'unknown' },
  Number.NaN,
  'tool_use',
  'function_call',
];

/** One random mutation of a deep copy: delete, replace, truncate, retype or wrap a value. */
function mutate(payload: unknown, random: () => number): unknown {
  const copy = structuredClone(payload);
  const targets = containers(copy);
  const mutations = 1 + Math.floor(random() * 3);
  for (let count = 0; count < mutations && targets.length > 0; count++) {
    const target = targets[Math.floor(random() * targets.length)] as Record<string, unknown>;
    const keys = Object.keys(target);
    const key = keys[Math.floor(random() * keys.length)];
    if (key === undefined) continue;
    const choice = random();
    const current = target[key];
    if (choice < 0.25) delete target[key];
    else if (choice < 0.6) target[key] = REPLACEMENTS[Math.floor(random() * REPLACEMENTS.length)];
    else if (choice < 0.75 && typeof current === 'string')
      target[key] = current.slice(0, Math.floor(random() * current.length));
    else if (choice < 0.85) target[key] = [current];
    else target[`${key}_${Math.floor(random() * 10)}`] = current;
  }
  return copy;
}

const ITERATIONS = 3000;

describe.each(ALL_ADAPTERS)(
  '%s: fuzzed payloads give a result or an AdapterError, nothing else',
  (provider, adapter: ToolAdapter) => {
    it(`survives ${ITERATIONS} mutations`, () => {
      const seeds = validPayloads(provider);
      const readers: Array<[keyof typeof seeds, (payload: unknown) => unknown]> = [
        ['tool', (payload) => adapter.toolFromWire(payload)],
        ['calls', (payload) => adapter.parseCalls(payload)],
        ['calls', (payload) => adapter.callsFromWire(payload)],
        ['results', (payload) => adapter.resultsFromWire(payload)],
      ];
      const random = prng(0x70016a7e ^ provider.length);
      let thrown = 0;
      for (let iteration = 0; iteration < ITERATIONS; iteration++) {
        const [kind, read] = readers[iteration % readers.length]!;
        const pool = seeds[kind];
        const payload = mutate(pool[Math.floor(random() * pool.length)], random);
        try {
          read(payload);
        } catch (error) {
          thrown++;
          if (!(error instanceof AdapterError)) {
            throw new Error(
              `iteration ${iteration} (${kind}) threw ${String(error)} for ${JSON.stringify(payload)}`,
            );
          }
        }
      }
      // The mutations must actually hit the validation paths, not only pass through.
      expect(thrown).toBeGreaterThan(ITERATIONS / 10);
    });
  },
);

describe.each([
  ['openai-responses', responsesSearches],
  ['anthropic', anthropicSearches],
] as const)('%s: fuzzed tool searches give a result or an AdapterError', (provider, seed) => {
  it(`survives ${ITERATIONS} mutations`, () => {
    const random = prng(0x5ea7c4 ^ provider.length);
    let thrown = 0;
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const payload = mutate(seed, random);
      try {
        parseToolSearches(provider, payload);
      } catch (error) {
        thrown++;
        if (!(error instanceof AdapterError)) {
          throw new Error(
            `iteration ${iteration} threw ${String(error)} for ${JSON.stringify(payload)}`,
          );
        }
      }
    }
    expect(thrown).toBeGreaterThan(ITERATIONS / 10);
  });
});
