import { describe, expect, it } from 'vitest';
import { ToolgateError } from '../errors/toolgate-error';
import fullTool from './__fixtures__/full-tool.json';
import minimalTool from './__fixtures__/minimal-tool.json';
import { parseToolIR, safeParseToolIR, ToolIRError } from './parse-tool-ir';

type Tool = Record<string, unknown>;

function valid(): Tool {
  return structuredClone(minimalTool);
}

/** The minimal valid tool with one change: `patch` replaces top-level fields (undefined removes one). */
function withFields(patch: Tool): Tool {
  const tool = valid();
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete tool[key];
    else tool[key] = value;
  }
  return tool;
}

const behavior = (patch: Tool): Tool =>
  withFields({ behavior: { ...minimalTool.behavior, ...patch } });
const constraints = (patch: Tool): Tool =>
  withFields({ constraints: { ...minimalTool.constraints, ...patch } });
const parameters = (schema: Tool): Tool => withFields({ parameters: schema });

function issuesOf(input: unknown): Array<{ path: string; message: string }> {
  try {
    parseToolIR(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolIRError);
    return (error as ToolIRError).issues;
  }
  throw new Error('expected parseToolIR to reject the input');
}

describe('parseToolIR accepts', () => {
  const accepted: Array<[string, unknown]> = [
    ['a minimal tool', valid()],
    ['a tool using every optional field', fullTool],
    ['a prerelease version', withFields({ version: '3.0.0-beta.2' })],
    ['a version with build metadata', withFields({ version: '1.0.0+20260101' })],
    ['a unicode name', withFields({ name: 'wetter_abfragen_ü' })],
    ['a name with spaces inside', withFields({ name: 'get weather' })],
    ['an empty description', withFields({ description: '' })],
    ['an object schema without properties', parameters({ type: 'object' })],
    [
      'boolean subschemas',
      parameters({ type: 'object', properties: { anything: true, nothing: false } }),
    ],
    [
      'recursive $defs',
      parameters({
        type: 'object',
        properties: { tree: { $ref: '#/$defs/node' } },
        $defs: {
          node: {
            type: 'object',
            properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          },
        },
      }),
    ],
    [
      'the 2020-12 $schema',
      parameters({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }),
    ],
    ['a destructive tool', behavior({ readonly: false, destructive: true, idempotent: false })],
    [
      'max retries 10 and timeout of one hour',
      constraints({ max_retries: 10, timeout_ms: 3_600_000 }),
    ],
    ['a rate limit', constraints({ rate_limit: { rpm: 1 } })],
    ['inline execution of a readonly tool', constraints({ execution: 'inline' })],
    ['queued execution of a readonly tool', constraints({ execution: 'queued' })],
    [
      'queued execution of a destructive tool',
      withFields({
        behavior: { readonly: false, destructive: true, idempotent: false },
        constraints: { timeout_ms: 5000, execution: 'queued' },
      }),
    ],
    ['cut-off argument repair on a readonly tool', withFields({ repair_cut_arguments: true })],
    [
      'repair_cut_arguments: false on a destructive tool',
      withFields({
        behavior: { readonly: false, destructive: true, idempotent: false },
        repair_cut_arguments: false,
      }),
    ],
    ['a result cache on a readonly tool', withFields({ cache: { ttl_ms: 60_000 } })],
    [
      'a shared result cache keyed on named arguments',
      withFields({ cache: { ttl_ms: 1, key: ['city', '/filter/day'], scope: 'shared' } }),
    ],
    ['tags with separators', withFields({ tags: ['team/payments', 'tier:1', 'v2.beta'] })],
    [
      'an unknown format (formats are open-ended)',
      parameters({ type: 'object', properties: { a: { type: 'string', format: 'x-custom' } } }),
    ],
  ];
  it.each(accepted)('%s', (_name, input) => {
    expect(() => parseToolIR(input)).not.toThrow();
  });

  it('applies the documented defaults', () => {
    const tool = parseToolIR(valid());
    expect(tool.behavior).toMatchObject({ open_world: true, requires_approval: 'if_destructive' });
    expect(tool.constraints.max_retries).toBe(0);
    expect(tool.constraints).not.toHaveProperty('execution');
    expect(tool).not.toHaveProperty('cache');
    expect(parseToolIR(withFields({ cache: { ttl_ms: 5 } })).cache).toEqual({
      ttl_ms: 5,
      scope: 'team',
    });
  });

  it('does not change its input', () => {
    const input = valid();
    const before = structuredClone(input);
    parseToolIR(input);
    expect(input).toEqual(before);
  });
});

describe('parseToolIR rejects', () => {
  const rejected: Array<[string, unknown, string]> = [
    ['null', null, '/'],
    ['an array', [valid()], '/'],
    ['a string', JSON.stringify(valid()), '/'],
    ['a number', 42, '/'],
    ['undefined', undefined, '/'],
    ['a missing name', withFields({ name: undefined }), '/name'],
    ['a missing id', withFields({ id: undefined }), '/id'],
    ['a missing version', withFields({ version: undefined }), '/version'],
    ['a missing description', withFields({ description: undefined }), '/description'],
    ['missing parameters', withFields({ parameters: undefined }), '/parameters'],
    ['a missing behavior', withFields({ behavior: undefined }), '/behavior'],
    ['missing constraints', withFields({ constraints: undefined }), '/constraints'],
    ['a missing schema_version', withFields({ schema_version: undefined }), '/schema_version'],
    ['a wrong schema_version', withFields({ schema_version: '2.0' }), '/schema_version'],
    ['a numeric schema_version', withFields({ schema_version: 1 }), '/schema_version'],
    ['a malformed uuid', withFields({ id: 'not-a-uuid' }), '/id'],
    [
      'a uuid with a bad variant',
      withFields({ id: '0b6f3f5e-3c1a-4c39-cf4e-2f1f7b1d2a10' }),
      '/id',
    ],
    ['a two-part version', withFields({ version: '1.0' }), '/version'],
    ['a v-prefixed version', withFields({ version: 'v1.0.0' }), '/version'],
    ['a version with leading zeros', withFields({ version: '01.0.0' }), '/version'],
    ['an empty name', withFields({ name: '' }), '/name'],
    ['a name with a control character', withFields({ name: 'get\nweather' }), '/name'],
    ['a name with trailing whitespace', withFields({ name: 'get_weather ' }), '/name'],
    ['a too long description', withFields({ description: 'x'.repeat(16_385) }), '/description'],
    ['a non-object parameters root', parameters({ type: 'string' }), '/parameters/type'],
    ['parameters without a type', parameters({ properties: {} }), '/parameters/type'],
    ['parameters as an array', withFields({ parameters: [] }), '/parameters'],
    [
      'a misspelt type',
      parameters({ type: 'object', properties: { city: { type: 'strnig' } } }),
      '/parameters/properties/city/type',
    ],
    ['required as a string', parameters({ type: 'object', required: 'x' }), '/parameters/required'],
    [
      'a negative minLength',
      parameters({ type: 'object', properties: { a: { type: 'string', minLength: -1 } } }),
      '/parameters/properties/a/minLength',
    ],
    [
      'a non-array enum',
      parameters({ type: 'object', properties: { a: { enum: 'x' } } }),
      '/parameters/properties/a/enum',
    ],
    [
      'a draft-07 $schema',
      parameters({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }),
      '/parameters/$schema',
    ],
    [
      'an invalid outputSchema',
      withFields({ outputSchema: { type: 'nope' } }),
      '/outputSchema/type',
    ],
    ['readonly and destructive', behavior({ readonly: true, destructive: true }), '/behavior'],
    [
      'cut-off argument repair on a destructive tool',
      withFields({
        behavior: { readonly: false, destructive: true, idempotent: false },
        repair_cut_arguments: true,
      }),
      '/repair_cut_arguments',
    ],
    [
      'cut-off argument repair on a free-text tool',
      withFields({
        parameters: {
          type: 'object',
          properties: { input: { type: 'string' } },
          required: ['input'],
          additionalProperties: false,
        },
        input_format: { type: 'text' },
        repair_cut_arguments: true,
      }),
      '/repair_cut_arguments',
    ],
    [
      'a result cache on a tool that writes',
      withFields({
        behavior: { readonly: false, destructive: false, idempotent: true },
        cache: { ttl_ms: 1000 },
      }),
      '/cache',
    ],
    ['a result cache without a ttl', withFields({ cache: { scope: 'team' } }), '/cache/ttl_ms'],
    [
      'a result cache longer than a day',
      withFields({ cache: { ttl_ms: 86_400_001 } }),
      '/cache/ttl_ms',
    ],
    [
      'an unknown cache scope',
      withFields({ cache: { ttl_ms: 1, scope: 'global' } }),
      '/cache/scope',
    ],
    ['an empty cache key', withFields({ cache: { ttl_ms: 1, key: [] } }), '/cache/key'],
    [
      'a repeated cache key argument',
      withFields({ cache: { ttl_ms: 1, key: ['a', 'a'] } }),
      '/cache/key',
    ],
    [
      'readonly but not idempotent',
      behavior({ readonly: true, idempotent: false }),
      '/behavior/idempotent',
    ],
    [
      'a missing behavior flag',
      withFields({ behavior: { readonly: true, idempotent: true } }),
      '/behavior/destructive',
    ],
    ['an unknown behavior field', behavior({ dangerous: true }), '/behavior'],
    [
      'an unknown approval mode',
      behavior({ requires_approval: 'sometimes' }),
      '/behavior/requires_approval',
    ],
    ['upper-case tags', withFields({ tags: ['Weather'] }), '/tags/0'],
    ['an empty tag', withFields({ tags: [''] }), '/tags/0'],
    ['a tag with spaces', withFields({ tags: ['two words'] }), '/tags/0'],
    ['duplicate tags', withFields({ tags: ['a', 'a'] }), '/tags'],
    ['tags as a string', withFields({ tags: 'weather' }), '/tags'],
    ['an unknown top-level field', withFields({ owner: 'me' }), '/'],
    ['timeout 0', constraints({ timeout_ms: 0 }), '/constraints/timeout_ms'],
    ['a timeout above one hour', constraints({ timeout_ms: 3_600_001 }), '/constraints/timeout_ms'],
    ['a fractional timeout', constraints({ timeout_ms: 1.5 }), '/constraints/timeout_ms'],
    ['negative retries', constraints({ max_retries: -1 }), '/constraints/max_retries'],
    ['too many retries', constraints({ max_retries: 11 }), '/constraints/max_retries'],
    ['a zero rpm', constraints({ rate_limit: { rpm: 0 } }), '/constraints/rate_limit/rpm'],
    [
      'a fractional tpm',
      constraints({ rate_limit: { rpm: 10, tpm: 0.5 } }),
      '/constraints/rate_limit/tpm',
    ],
    [
      'an unknown rate limit field',
      constraints({ rate_limit: { rpm: 10, burst: 5 } }),
      '/constraints/rate_limit',
    ],
    [
      'a negative cost',
      constraints({ cost_estimate_usd: -0.01 }),
      '/constraints/cost_estimate_usd',
    ],
    ['an unknown execution mode', constraints({ execution: 'worker' }), '/constraints/execution'],
    [
      'a cost report header that is no header name',
      constraints({ cost_report: { in: 'header', name: 'x cost' } }),
      '/constraints/cost_report/name',
    ],
    [
      'a cost report pointer that is no JSON Pointer',
      constraints({ cost_report: { in: 'result', pointer: 'usage.cost' } }),
      '/constraints/cost_report/pointer',
    ],
    ['a tool as its own fallback', withFields({ fallback: ['get_weather'] }), '/fallback'],
    ['duplicate fallbacks', withFields({ fallback: ['a', 'a'] }), '/fallback'],
    [
      'a tool depending on itself',
      withFields({ dependencies: { tools: ['get_weather'] } }),
      '/dependencies/tools',
    ],
    [
      'a non-record provider hint',
      withFields({ provider_hints: { openai: 'strict' } }),
      '/provider_hints/openai',
    ],
  ];

  it('covers at least 30 cases', () => {
    expect(rejected.length).toBeGreaterThanOrEqual(30);
  });

  it.each(rejected)('%s (issue at %s)', (_name, input, path) => {
    const issues = issuesOf(input);
    expect(issues.map((issue) => issue.path)).toContain(path);
    for (const issue of issues) expect(issue.message).toEqual(expect.any(String));
  });

  it('reports every problem at once, not just the first', () => {
    const issues = issuesOf(withFields({ id: 'x', version: 'y', name: '' }));
    expect(issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['/id', '/version', '/name']),
    );
  });

  it('reports field problems and parameters schema problems in one error', () => {
    const error = (() => {
      try {
        parseToolIR(
          withFields({
            version: '1.0',
            behavior: { readonly: true, destructive: true, idempotent: true },
            constraints: { timeout_ms: 0 },
            parameters: { type: 'object', properties: { city: { type: 'strnig' } } },
            outputSchema: { type: 'nope' },
          }),
        );
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ToolIRError);
    expect((error as ToolIRError).code).toBe('invalid_tool_ir');
    expect((error as ToolIRError).issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining([
        '/version',
        '/constraints/timeout_ms',
        '/parameters/properties/city/type',
        '/outputSchema/type',
        '/behavior',
      ]),
    );
  });

  it('checks the root type of the parameters next to other field problems', () => {
    expect(issuesOf(withFields({ name: '', parameters: { type: 'string' } }))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/name' }),
        expect.objectContaining({ path: '/parameters/type' }),
      ]),
    );
  });

  it('runs cross-field checks only on fields that are valid, so no issue is reported twice', () => {
    const paths = issuesOf(withFields({ tags: ['Upper', 'Upper'], fallback: 'x' })).map(
      (issue) => issue.path,
    );
    expect(paths).toContain('/tags/0');
    expect(paths).toContain('/fallback');
    expect(paths).not.toContain('/tags');
  });

  it('refuses a too deeply nested schema next to an invalid field without crashing', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let depth = 0; depth < 100_000; depth += 1)
      schema = { type: 'object', properties: { a: schema } };
    expect(issuesOf(withFields({ version: 'x', parameters: schema }))).toEqual([
      expect.objectContaining({ path: '/version' }),
      { path: '/parameters', message: 'is nested too deeply' },
    ]);
  });

  it('throws a ToolgateError with code invalid_tool_ir', () => {
    const error = (() => {
      try {
        parseToolIR(null);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ToolgateError.isInstance(error)).toBe(true);
    expect((error as ToolgateError).code).toBe('invalid_tool_ir');
  });
});

describe('parseToolIR on inline execution', () => {
  const inlineWith = (flags: Tool): Tool =>
    withFields({
      behavior: { ...minimalTool.behavior, ...flags },
      constraints: { ...minimalTool.constraints, execution: 'inline' },
    });

  // Each behavior is valid on its own, so the execution issue is the only one.
  it.each([
    ['not readonly', { readonly: false, destructive: false, idempotent: true }],
    ['not idempotent', { readonly: false, destructive: false, idempotent: false }],
    ['destructive', { readonly: false, destructive: true, idempotent: true }],
  ])('refuses inline on a tool that is %s', (_name, flags) => {
    expect(issuesOf(inlineWith(flags))).toEqual([
      {
        path: '/constraints/execution',
        message: 'inline execution needs a readonly, idempotent, non-destructive tool',
      },
    ]);
  });

  it('refuses inline next to the behavior issues of an inconsistent tool', () => {
    const paths = issuesOf(inlineWith({ readonly: true, destructive: true })).map(
      (issue) => issue.path,
    );
    expect(paths).toEqual(expect.arrayContaining(['/behavior', '/constraints/execution']));
  });

  it('keeps inline on a readonly, idempotent, non-destructive tool', () => {
    expect(parseToolIR(inlineWith({})).constraints.execution).toBe('inline');
  });

  it('keeps a declared cost report, in a header or in the result', () => {
    const header = { in: 'header', name: 'X-Cost-USD' } as const;
    const result = { in: 'result', pointer: '/usage/cost_usd' } as const;
    expect(
      parseToolIR(withFields({ constraints: { timeout_ms: 5000, cost_report: header } }))
        .constraints.cost_report,
    ).toEqual(header);
    expect(
      parseToolIR(withFields({ constraints: { timeout_ms: 5000, cost_report: result } }))
        .constraints.cost_report,
    ).toEqual(result);
  });

  it('keeps queued on any tool', () => {
    const tool = parseToolIR(
      withFields({
        behavior: { readonly: false, destructive: true, idempotent: false },
        constraints: { timeout_ms: 5000, execution: 'queued' },
      }),
    );
    expect(tool.constraints.execution).toBe('queued');
  });
});

describe('parseToolIR on absurd input', () => {
  it('refuses a schema nested deeper than the stack with a ToolIRError', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let depth = 0; depth < 100_000; depth += 1)
      schema = { type: 'object', properties: { a: schema } };
    expect(issuesOf(parameters(schema))).toEqual([
      { path: '/parameters', message: 'is nested too deeply' },
    ]);
  });
});

describe('safeParseToolIR', () => {
  it('returns the issues instead of throwing', () => {
    const result = safeParseToolIR(withFields({ id: 'x' }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.path).toBe('/id');
  });
});

// A small deterministic generator: the fuzz run is the same on every machine.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x100000000;
  };
}

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 7 : 9));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() > 0.5;
    case 2:
      return Math.floor(next() * 2000) - 1000;
    case 3:
      return next() * 1e9;
    case 4:
      return [
        '',
        'x',
        '1.0.0',
        'get_weather',
        '0b6f3f5e-3c1a-4c39-9f4e-2f1f7b1d2a10',
        '__proto__',
        'object',
      ][Math.floor(next() * 7)];
    case 5:
      return undefined;
    case 6:
      return [
        Number.NaN,
        Number.POSITIVE_INFINITY,
        -0,
        Symbol('s'),
        () => 1,
        new Date(0),
        BigInt(1),
      ][Math.floor(next() * 7)];
    case 7:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    default: {
      const keys = [
        'type',
        'properties',
        'required',
        'behavior',
        'readonly',
        'timeout_ms',
        '$ref',
        'items',
        'name',
        'a',
      ];
      const value: Record<string, unknown> = {};
      for (let index = Math.floor(next() * 4); index > 0; index -= 1) {
        value[keys[Math.floor(next() * keys.length)]!] = randomValue(next, depth + 1);
      }
      return value;
    }
  }
}

function mutate(next: () => number): unknown {
  const tool = structuredClone(fullTool) as Record<string, unknown>;
  const paths: Array<[Record<string, unknown>, string]> = [];
  const collect = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, child] of Object.entries(node)) {
      paths.push([node as Record<string, unknown>, key]);
      collect(child);
    }
  };
  collect(tool);
  for (let count = 1 + Math.floor(next() * 3); count > 0; count -= 1) {
    const [holder, key] = paths[Math.floor(next() * paths.length)]!;
    holder[key] = randomValue(next, 1);
  }
  return tool;
}

describe('parseToolIR under fuzzing', () => {
  it('throws nothing but ToolIRError for random values and random mutations of a valid tool', () => {
    const next = random(20260101);
    for (let round = 0; round < 1500; round += 1) {
      const input = round % 2 === 0 ? randomValue(next, 0) : mutate(next);
      try {
        parseToolIR(input);
      } catch (error) {
        if (!(error instanceof ToolIRError))
          throw new Error(`round ${round} threw ${String(error)}`);
        expect(error.issues.length).toBeGreaterThan(0);
      }
    }
  });
});
