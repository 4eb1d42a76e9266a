import { validateArguments } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { buildTool } from '../../test/support/tool-factory';
import documents from './__fixtures__/search-arguments.json';
import parameters from './__fixtures__/search-parameters.json';
import { repairCutArguments, type RepairCutArgumentsResult } from './repair-cut-arguments';

const search = buildTool({ name: 'search', parameters, repair_cut_arguments: true });

function repaired(text: string): Extract<RepairCutArgumentsResult, { ok: true }> {
  const result = repairCutArguments(text, search);
  if (!result.ok) throw new Error(`expected a repair of ${text}, got: ${result.reason}`);
  return result;
}

function refused(text: string): string {
  const result = repairCutArguments(text, search);
  if (result.ok) throw new Error(`expected ${text} to be refused, got ${JSON.stringify(result)}`);
  return result.reason;
}

describe('repairCutArguments: unambiguous cuts are completed', () => {
  it('closes an open object after a complete member and fills the defaults of missing optional properties', () => {
    expect(repaired('{"query":"weather in Oslo"')).toEqual({
      ok: true,
      arguments: { query: 'weather in Oslo', limit: 10 },
      repair: {
        received: 26,
        closed: ['/'],
        completed: [],
        dropped: [],
        filled: [{ path: '/limit', value: 10 }],
      },
    });
  });

  it.each([
    ['after a comma', '{"query":"weather in Oslo",'],
    ['after a space', '{"query":"weather in Oslo", '],
    ['inside a key', '{"query":"weather in Oslo","li'],
    ['after an opening quote of a key', '{"query":"weather in Oslo","'],
  ])('drops a member whose key was cut (%s): nothing says which it was', (_name, text) => {
    const { arguments: args, repair } = repaired(text);
    expect(args).toEqual({ query: 'weather in Oslo', limit: 10 });
    expect(repair.dropped).toEqual([{ path: '/', cut: 'member_name' }]);
  });

  it.each([
    ['a key before its colon', '{"query":"a","note"'],
    ['a key after its colon', '{"query":"a","note":'],
    ['a key after its colon and a space', '{"query":"a","note": '],
  ])(
    'drops an optional member without default or choice whose value never started (%s)',
    (_name, text) => {
      const { arguments: args, repair } = repaired(text);
      expect(args).toEqual({ query: 'a', limit: 10 });
      expect(repair.dropped).toEqual([{ path: '/note', cut: 'no_value' }]);
    },
  );

  it('drops the cut string of an optional property without default or choice', () => {
    const { arguments: args, repair } = repaired('{"query":"a","note":"late eve');
    expect(args).toEqual({ query: 'a', limit: 10 });
    expect(repair.dropped).toEqual([{ path: '/note', cut: 'string' }]);
  });

  it('drops the cut number of an optional property, even one whose digits could be complete', () => {
    expect(repaired('{"query":"a","score":12').repair.dropped).toEqual([
      { path: '/score', cut: 'number' },
    ]);
    expect(repaired('{"query":"a","score":-1.').arguments).toEqual({ query: 'a', limit: 10 });
    expect(repaired('{"query":"a","score":1e').arguments).toEqual({ query: 'a', limit: 10 });
  });

  it('keeps a number that a delimiter finished', () => {
    expect(repaired('{"query":"a","score":12 ').arguments).toEqual({
      query: 'a',
      score: 12,
      limit: 10,
    });
  });

  it.each([
    ['t', true],
    ['tru', true],
    ['f', false],
    ['fals', false],
  ])('completes the literal %j: only one literal begins so', (prefix, value) => {
    const { arguments: args, repair } = repaired(`{"query":"a","exact":${prefix}`);
    expect(args).toEqual({ query: 'a', exact: value, limit: 10 });
    expect(repair.completed).toEqual([{ path: '/exact', value }]);
  });

  it('closes a nested object and fills its defaults too', () => {
    const { arguments: args, repair } = repaired('{"query":"a","filters":{"lang":"no"');
    expect(args).toEqual({ query: 'a', filters: { lang: 'no', safe: true }, limit: 10 });
    expect(repair.closed).toEqual(['/filters', '/']);
    expect(repair.filled).toEqual([
      { path: '/limit', value: 10 },
      { path: '/filters/safe', value: true },
    ]);
  });

  it('follows a local $ref to read a nested object', () => {
    expect(repaired('{"query":"a","range":{"from":1,"to":').arguments).toEqual({
      query: 'a',
      range: { from: 1 },
      limit: 10,
    });
  });

  it('closes an array the schema lets hold no more elements (prefixItems with items: false, maxItems)', () => {
    expect(repaired('{"query":"a","point":[59.9,10.7 ').arguments).toMatchObject({
      point: [59.9, 10.7],
    });
    const pair = repaired('{"query":"a","pair":[1,2 ');
    expect(pair.arguments).toMatchObject({ pair: [1, 2] });
    expect(pair.repair.closed).toEqual(['/pair', '/']);
    // Without the space the last number may have gone on (`2` of `23`): the array is cut.
    expect(repaired('{"query":"a","pair":[1,2').repair.dropped).toEqual([
      { path: '/pair', cut: 'array' },
    ]);
  });

  it('drops an optional array that could have held more elements, and what was inside it', () => {
    const { arguments: args, repair } = repaired('{"query":"a","tags":["transit","nig');
    expect(args).toEqual({ query: 'a', limit: 10 });
    expect(repair.dropped).toEqual([{ path: '/tags', cut: 'array' }]);
    expect(repaired('{"query":"a","tags":["transit",').repair.dropped).toEqual([
      { path: '/tags', cut: 'array' },
    ]);
    expect(repaired('{"query":"a","tags":[').repair.dropped).toEqual([
      { path: '/tags', cut: 'array' },
    ]);
  });

  it('runs whole arguments of a call that was only marked cut as they are', () => {
    expect(repaired('{"query":"a","limit":3}')).toMatchObject({
      arguments: { query: 'a', limit: 3 },
      repair: { closed: [], completed: [], dropped: [], filled: [] },
    });
  });
});

describe('repairCutArguments: ambiguous cuts are refused', () => {
  it.each([
    ['a cut string of a required property', '{"query":"weather in Os', '/query is required'],
    ['a required property whose value never started', '{"query":', '/query is required'],
    ['a required property named before its colon', '{"query"', '/query is required'],
    ['a cut number of a property with a default', '{"query":"a","limit":1', '/limit has a default'],
    [
      'a property with a default whose value never started',
      '{"query":"a","limit":',
      '/limit has a default',
    ],
    [
      'a cut enum value, even with one member matching',
      '{"query":"a","unit":"cel',
      '/unit takes one of a fixed set',
    ],
    [
      'a cut required string in a nested object',
      '{"query":"a","filters":{"lang":"n',
      '/filters/lang is required',
    ],
    ['a property under anyOf', '{"query":"a","pick":"x', '/pick: its schema combines subschemas'],
    [
      'a required nested property whose value never started',
      '{"query":"a","filters":{"lang":',
      '/filters/lang is required',
    ],
  ])('%s', (_name, text, reason) => {
    expect(refused(text)).toContain(reason);
  });

  it('refuses a completion the validator rejects: a required property never written', () => {
    expect(refused('{"limit":5,')).toContain('missing required property /query');
    expect(repairCutArguments('{"limit":5,', search)).toMatchObject({
      ok: false,
      received: 11,
      errors: [{ path: '/query', keyword: 'required' }],
    });
  });

  it('refuses a completed literal the schema does not take', () => {
    expect(refused('{"query":"a","exact":n')).toContain('/exact');
  });

  it('refuses a cut document nested deeper than it reads, in time linear in its length', () => {
    const deep = `{"query":"a","tags":${'['.repeat(200_000)}`;
    expect(refused(deep)).toContain('nested deeper than 64 levels');
  });

  it('refuses text that is not a cut JSON object', () => {
    expect(refused('')).toContain('no argument text');
    expect(refused('{"query":"a"]')).toContain('not valid JSON');
    expect(refused('["a"')).toContain('not a JSON object');
    expect(refused('"quer')).toContain('not a JSON object');
  });
});

describe('repairCutArguments over every cut point of the fixture documents', () => {
  const valueAt = (document: unknown, path: string): unknown =>
    path === '/'
      ? document
      : path
          .slice(1)
          .split('/')
          .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
          .reduce<unknown>(
            (current, token) =>
              current === undefined ? undefined : (current as Record<string, unknown>)[token],
            document,
          );

  it.each(documents.map((document, index) => [index, document] as const))(
    'document %i: each repair validates and keeps only what the model wrote, plus listed defaults',
    (_index, document) => {
      expect(validateArguments(search, document).ok).toBe(true);
      const text = JSON.stringify(document, null, 1);
      let repairs = 0;
      for (let end = 0; end < text.length; end++) {
        const result = repairCutArguments(text.slice(0, end), search);
        if (!result.ok) continue;
        repairs++;
        expect(validateArguments(search, result.arguments).ok).toBe(true);
        const filled = new Map(result.repair.filled.map((entry) => [entry.path, entry.value]));
        // Every scalar the repair kept is the one the whole document holds at that place.
        const check = (value: unknown, path: string): void => {
          if (filled.has(path)) {
            expect(value).toEqual(filled.get(path));
            return;
          }
          if (value !== null && typeof value === 'object') {
            for (const [key, child] of Object.entries(value))
              check(
                child,
                `${path === '/' ? '' : path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
              );
            return;
          }
          expect(value, `${path} of ${text.slice(0, end)}`).toEqual(valueAt(document, path));
        };
        check(result.arguments, '/');
      }
      // The cuts after the required query are what makes a document repairable at all.
      expect(repairs).toBeGreaterThan(0);
    },
  );
});
