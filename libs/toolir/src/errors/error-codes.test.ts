import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ALL_ERROR_CODES,
  ERROR_CODES,
  PROBLEM_CODES,
  RESULT_ERROR_CODES,
  THROWN_ERROR_CODES,
  errorDetailsSchemaOf,
  isErrorCode,
  problemExtensionsSchemaOf,
  problemStatusOf,
  type ErrorCode,
  type ErrorCodeSpec,
  type ErrorDetails,
  type ErrorEmitter,
  type ErrorSurface,
  type ProblemExtensions,
} from './error-codes';
import { TOOLGATE_ERROR_CODES, ToolgateError } from './toolgate-error';

const workspace = path.resolve(import.meta.dirname, '../../../..');

/**
 * Where codes are emitted and who emits them. Layers may not import each other's code into this
 * lib (toolir depends on nothing), so the emitters are read as source text.
 */
const SOURCE_ROOTS: ReadonlyArray<{ dir: string; emitter: ErrorEmitter }> = [
  // First match wins: the MCP endpoint lives inside the API.
  { dir: 'apps/registry-api/src/mcp', emitter: 'mcp' },
  { dir: 'apps/registry-api/src', emitter: 'api' },
  // The worker process hosts the gateway's call runner.
  { dir: 'apps/worker/src', emitter: 'gateway' },
  { dir: 'libs/gateway/src', emitter: 'gateway' },
  { dir: 'libs/persistence/src', emitter: 'persistence' },
  { dir: 'libs/engine/src', emitter: 'engine' },
  { dir: 'libs/adapters/src', emitter: 'adapters' },
  { dir: 'libs/sdk/src', emitter: 'sdk' },
  { dir: 'libs/toolir/src', emitter: 'toolir' },
];

/** Files that name codes without emitting them: the table itself. */
const NOT_EMITTERS = new Set(['libs/toolir/src/errors/error-codes.ts']);

interface Emission {
  code: string;
  surface: ErrorSurface;
  emitter: ErrorEmitter;
  where: string;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(workspace, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (['generated', '__fixtures__', 'node_modules'].includes(entry.name)) continue;
      files.push(...sourceFiles(relative));
    } else if (
      entry.name.endsWith('.ts') &&
      !/\.test(-d)?\.ts$/.test(entry.name) &&
      !NOT_EMITTERS.has(relative)
    ) {
      files.push(relative);
    }
  }
  return files;
}

/**
 * The brace pairs (object literals, blocks) of a TypeScript source, skipping strings, template
 * text, regular expressions and comments: enough structure to tell which keys sit beside a `code:`.
 */
function braceRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  // An open brace, or the `${` of a template expression (closing it returns to template text).
  const stack: Array<{ at: number; template: boolean }> = [];
  let index = 0;
  const readTemplate = (): void => {
    while (index < text.length) {
      const char = text[index];
      if (char === '\\') index += 2;
      else if (char === '`') {
        index += 1;
        return;
      } else if (text.startsWith('${', index)) {
        stack.push({ at: index + 1, template: true });
        index += 2;
        return;
      } else index += 1;
    }
  };
  const skipUntil = (end: string): void => {
    let inClass = false;
    while (index < text.length && (inClass || text[index] !== end)) {
      if (text[index] === '\\') index += 1;
      else if (end === '/' && text[index] === '[') inClass = true;
      else if (end === '/' && text[index] === ']') inClass = false;
      if (text[index] === '\n') return;
      index += 1;
    }
    index += 1;
  };
  while (index < text.length) {
    const char = text[index];
    if (text.startsWith('//', index)) {
      const end = text.indexOf('\n', index);
      index = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', index)) {
      const end = text.indexOf('*/', index);
      index = end < 0 ? text.length : end + 2;
    } else if (char === "'" || char === '"') {
      index += 1;
      skipUntil(char);
    } else if (
      char === '/' &&
      /(?:[(,=:[!&|?{};]|\breturn|^)\s*$/.test(text.slice(0, index).slice(-20))
    ) {
      index += 1;
      skipUntil('/');
    } else if (char === '`') {
      index += 1;
      readTemplate();
    } else {
      if (char === '{') stack.push({ at: index, template: false });
      else if (char === '}') {
        const open = stack.pop();
        if (open?.template === true) {
          index += 1;
          readTemplate();
          continue;
        }
        if (open !== undefined) ranges.push([open.at, index]);
      }
      index += 1;
    }
  }
  return ranges;
}

/** The keys written at the top level of an object literal's body (`key:`, `key?:` or shorthand `key`). */
function topLevelKeys(body: string): string[] {
  const withoutStrings = body.replace(
    /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g,
    "''",
  );
  let depth = 0;
  const parts = [''];
  for (const char of withoutStrings) {
    if ('{[('.includes(char)) depth += 1;
    else if ('}])'.includes(char)) depth -= 1;
    else if (depth === 0 && (char === ',' || char === ';')) parts.push('');
    else if (depth === 0) parts[parts.length - 1] += char;
  }
  return parts.flatMap((part) => {
    const key = /^\s*(\w+)\s*\??\s*(?::|$)/.exec(part)?.[1];
    return key === undefined ? [] : [key];
  });
}

/** Whether `before` (the text ahead of an object) ends inside the arguments of an adapter error's construction. */
function inErrorConstruction(before: string): boolean {
  const start = Math.max(before.lastIndexOf('new AdapterError('), before.lastIndexOf('super('));
  return start >= 0 && !before.slice(start).includes(';');
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Every code one source file emits, by the rules above each loop. */
function emissionsIn(text: string, source: { file: string; emitter: ErrorEmitter }): Emission[] {
  const emissions: Emission[] = [];
  const add = (code: string, surface: ErrorSurface, index: number): void => {
    emissions.push({
      code,
      surface,
      emitter: source.emitter,
      where: `${source.file}:${lineOf(text, index)}`,
    });
  };
  const ranges = braceRanges(text);
  const innermost = (index: number): [number, number] | undefined =>
    ranges
      .filter(([open, close]) => open < index && index < close)
      .sort((left, right) => right[0] - left[0])[0];

  // A classification row's result code.
  for (const match of text.matchAll(/\bresult_code:\s*'(\w+)'/g))
    add(match[1]!, 'result', match.index);
  // `code: '...'` beside `retryable` is a result's error; beside `type` and `status` a problem
  // document; alone in the options of an adapter error, the code it throws. Other `code:`s
  // (a failure signal for the classification table, a zod issue) are not codes of the table.
  for (const match of text.matchAll(/(?<![\w.])code:\s*'(\w+)'/g)) {
    const range = innermost(match.index);
    if (range === undefined) continue;
    const keys = topLevelKeys(text.slice(range[0] + 1, range[1]));
    const before = text.slice(Math.max(0, range[0] - 300), range[0]);
    if (keys.includes('retryable')) add(match[1]!, 'result', match.index);
    else if (keys.includes('type') && keys.includes('status'))
      add(match[1]!, 'problem', match.index);
    else if (keys.length === 1 && inErrorConstruction(before))
      add(match[1]!, 'thrown', match.index);
  }
  for (const match of text.matchAll(
    /new (?:ToolgateError|ToolgateSdkError|BatchPlanError)\(\s*'(\w+)'/g,
  ))
    add(match[1]!, 'thrown', match.index);
  // Subclasses that fix their code in their constructor.
  for (const match of text.matchAll(/\bsuper\(\s*'(\w+)'/g)) add(match[1]!, 'thrown', match.index);
  for (const match of text.matchAll(/new ToolExecutionError\(/g))
    add('execution_failed', 'thrown', match.index);
  for (const match of text.matchAll(/new AdapterError\(/g))
    add('adapter_error', 'thrown', match.index);
  for (const match of text.matchAll(/new ToolException\(\s*'(\w+)'/g))
    add(match[1]!, 'problem', match.index);
  // The API's mapping of HTTP statuses (of framework errors) to problem codes.
  if (source.file.startsWith('apps/registry-api/src/problem/'))
    for (const match of text.matchAll(/\breturn '(\w+)';/g)) add(match[1]!, 'problem', match.index);
  return emissions;
}

function scanEmissions(): Emission[] {
  const emissions: Emission[] = [];
  const seen = new Set<string>();
  for (const root of SOURCE_ROOTS) {
    for (const file of sourceFiles(root.dir)) {
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(path.join(workspace, file), 'utf8');
      emissions.push(...emissionsIn(text, { file, emitter: root.emitter }));
    }
  }
  return emissions;
}

/**
 * Pairs of the table nothing emits as a literal the scan can see, and why they are still real.
 * A new entry here needs a reason; a stale one fails the test.
 */
const EMITTED_OUT_OF_SIGHT: Readonly<Record<string, string>> = {};

describe('the scan of the sources', () => {
  const scan = (text: string): string[] =>
    emissionsIn(text, { file: 'x.ts', emitter: 'engine' }).map(
      (emission) => `${emission.code}/${emission.surface}`,
    );

  it('reads every way a code is emitted', () => {
    const source = `
      const row = { match: { code: 'signal_code' }, result_code: 'row_code', layer: 'retry' };
      const failed = { ok: false, error: { code: 'result_code', message: \`a {b} \${c ? '}' : d}\`, retryable: false } };
      reply.send({ type: 'https://toolgate.dev/problems/x', status: 503, code: 'problem_code' });
      throw new ToolgateError('thrown_code', "it's broken");
      class E extends ToolgateError<'x'> { constructor() { super('subclass_code', 'm'); } }
      throw new AdapterError('bad', { provider, path: '/' }, { code: 'adapter_code' });
      throw new ToolExecutionError({ code: 'signal_code', message: 'no' });
      throw new ToolException('gone', 'm');
      if (error.code === 'not_raised') return;
      const quoted = /['{]/.test(text) ? { code: 'zod_code', message: 'x' } : undefined;
    `;
    expect(scan(source).sort()).toEqual(
      [
        'row_code/result',
        'result_code/result',
        'problem_code/problem',
        'thrown_code/thrown',
        'subclass_code/thrown',
        'adapter_error/thrown',
        'adapter_code/thrown',
        'execution_failed/thrown',
        'gone/problem',
      ].sort(),
    );
  });
});

describe('ERROR_CODES against the sources', () => {
  const emissions = scanEmissions();

  it('finds emissions in every layer (the scan itself works)', () => {
    const emitters = new Set(emissions.map((emission) => emission.emitter));
    for (const emitter of [
      'api',
      'mcp',
      'engine',
      'gateway',
      'persistence',
      'toolir',
      'adapters',
      'sdk',
    ] satisfies ErrorEmitter[])
      expect(emitters, `no emission found for ${emitter}`).toContain(emitter);
    expect(emissions.length).toBeGreaterThan(100);
  });

  it('has every emitted code, on the surface and for the emitter it is emitted by', () => {
    const wrong = emissions.flatMap((emission) => {
      if (!isErrorCode(emission.code))
        return [`${emission.where}: ${emission.code} is not in ERROR_CODES`];
      const spec: ErrorCodeSpec = ERROR_CODES[emission.code];
      const problems: string[] = [];
      if (!spec.surfaces.includes(emission.surface))
        problems.push(`${emission.where}: ${emission.code} is emitted as ${emission.surface}`);
      if (!spec.emitters.includes(emission.emitter))
        problems.push(`${emission.where}: ${emission.code} is emitted by ${emission.emitter}`);
      return problems;
    });
    expect(wrong).toEqual([]);
  });

  it('has no code on a surface nothing emits it on', () => {
    const emitted = new Set(emissions.map((emission) => `${emission.code}/${emission.surface}`));
    const unseen = ALL_ERROR_CODES.flatMap((code) =>
      ERROR_CODES[code].surfaces
        .map((surface) => `${code}/${surface}`)
        .filter((pair) => !emitted.has(pair) && EMITTED_OUT_OF_SIGHT[pair] === undefined),
    );
    expect(unseen).toEqual([]);
    const stale = Object.keys(EMITTED_OUT_OF_SIGHT).filter((pair) => emitted.has(pair));
    expect(stale).toEqual([]);
  });
});

describe('ERROR_CODES', () => {
  it('gives problem codes a 4xx/5xx status and a title, and no other code either', () => {
    for (const code of ALL_ERROR_CODES) {
      const spec: ErrorCodeSpec = ERROR_CODES[code];
      if (spec.surfaces.includes('problem')) {
        expect(spec.status, code).toBeGreaterThanOrEqual(400);
        expect(spec.status, code).toBeLessThan(600);
        expect(spec.title, code).toMatch(/\S/);
      } else {
        expect(spec.status, code).toBeUndefined();
        expect(spec.title, code).toBeUndefined();
        expect(spec.extensions, `${code} has no problem document`).toBeUndefined();
      }
      if (spec.details !== undefined) {
        expect(
          spec.surfaces.some((surface) => surface !== 'problem'),
          `${code} details are only carried by results and thrown errors`,
        ).toBe(true);
      }
    }
  });

  it('derives the lists of each surface from the table', () => {
    expect(PROBLEM_CODES).toContain('not_found');
    expect(RESULT_ERROR_CODES).toEqual(
      ALL_ERROR_CODES.filter((code) =>
        (ERROR_CODES[code].surfaces as readonly string[]).includes('result'),
      ),
    );
    expect(TOOLGATE_ERROR_CODES).toBe(THROWN_ERROR_CODES);
    expect(THROWN_ERROR_CODES).toContain('execution_failed');
    expect(THROWN_ERROR_CODES).not.toContain('invalid_arguments');
    expect(isErrorCode('timeout', 'result')).toBe(true);
    expect(isErrorCode('timeout', 'problem')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(problemStatusOf('version_sunset')).toBe(410);
  });

  it('describes problem extension members with zod schemas', () => {
    const forbidden = problemExtensionsSchemaOf('forbidden');
    expect(forbidden.parse({ required_scopes: ['tools:write'] })).toEqual({
      required_scopes: ['tools:write'],
    });
    expect(forbidden.safeParse({ required_scopes: 'tools:write' }).success).toBe(false);
    expect(problemExtensionsSchemaOf('not_found').parse({})).toEqual({});
    expectTypeOf<ProblemExtensions<'missing_secrets'>>().toEqualTypeOf<{
      missing_secrets?: string[] | undefined;
    }>();
    expectTypeOf<ProblemExtensions<'not_found'>>().toEqualTypeOf<Record<string, never>>();
    expect(errorDetailsSchemaOf('invalid_tool_ir')?.safeParse({ issues: [] }).success).toBe(true);
    expect(errorDetailsSchemaOf('aborted')).toBeUndefined();
  });
});

describe('ToolgateError typed by its code', () => {
  it('types details by the code, and narrows a wide error with hasCode', () => {
    const error: ToolgateError = new ToolgateError('version_not_found', 'no 9.0.0', {
      details: { toolId: 't', requested: '9.0.0' },
    });
    expectTypeOf<ErrorDetails<'invalid_tool_ir'>>().toEqualTypeOf<{
      issues: { path: string; message: string }[];
    }>();
    expectTypeOf<ErrorDetails<'aborted'>>().toEqualTypeOf<undefined>();
    expect(error.hasCode('version_sunset')).toBe(false);
    if (!error.hasCode('version_not_found')) throw new Error('expected version_not_found');
    expectTypeOf(error.details).toEqualTypeOf<{ toolId: string; requested: string } | undefined>();
    expect(error.details?.requested).toBe('9.0.0');
  });

  it('takes retryable from the table unless told', () => {
    expect(new ToolgateError('network_error', 'down').retryable).toBe(true);
    expect(new ToolgateError('invalid_version', 'no').retryable).toBe(false);
    expect(new ToolgateError('network_error', 'down', { retryable: false }).retryable).toBe(false);
  });

  it('refuses codes it does not throw and details a code does not carry', () => {
    // @ts-expect-error -- invalid_arguments is a result code, never thrown
    expect(new ToolgateError('invalid_arguments', 'x').code).toBe('invalid_arguments');
    // @ts-expect-error -- version_not_found details are { toolId, requested }
    void new ToolgateError('version_not_found', 'x', { details: { version: '1.0.0' } });
    const code: ErrorCode = 'internal';
    expect(ERROR_CODES[code].emitters).toContain('toolir');
  });
});
