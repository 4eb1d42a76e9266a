import { describe, expect, it } from 'vitest';
import { safeParseToolIR, parseToolIR } from '../ir/parse-tool-ir';
import type { ToolIRInput } from '../ir/tool-ir';
import { validateArguments } from '../validation/validate-arguments';
import { grammarCheckOf, isTextInput, textInputParameters } from './text-input';

function textTool(grammar?: { syntax: 'lark' | 'regex'; definition: string }): ToolIRInput {
  return {
    schema_version: '1.0',
    id: '7b0f3f5e-3f3a-4c55-9d55-1f8f2c1e0a11',
    name: 'run_sql',
    version: '1.0.0',
    description: 'Runs one read-only SQL statement.',
    input_format: { type: 'text', ...(grammar === undefined ? {} : { grammar }) },
    parameters: textInputParameters(),
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 1000 },
  };
}

describe('free-text tools', () => {
  it('parses a free-text tool with a regex grammar and matches its input with RE2', () => {
    const tool = parseToolIR(textTool({ syntax: 'regex', definition: 'SELECT \\w+ FROM \\w+' }));
    expect(isTextInput(tool)).toBe(true);
    expect(grammarCheckOf(tool)).toBe('regex');
    expect(validateArguments(tool, { input: 'SELECT name FROM users' })).toEqual({
      ok: true,
      value: { input: 'SELECT name FROM users' },
    });
    // The whole input must match, not a part of it.
    const partial = validateArguments(tool, { input: 'SELECT name FROM users; DROP TABLE users' });
    expect(partial).toEqual({
      ok: false,
      errors: [
        {
          path: '/input',
          keyword: 'grammar',
          message: '/input must match the whole regular expression SELECT \\w+ FROM \\w+',
          params: { syntax: 'regex', definition: 'SELECT \\w+ FROM \\w+' },
        },
      ],
    });
  });

  it('matches in linear time where a backtracking engine would not finish', () => {
    const tool = parseToolIR(textTool({ syntax: 'regex', definition: '(a+)+b' }));
    // 10,000 a's without the b: exponential for a backtracking matcher, linear for RE2.
    const result = validateArguments(tool, { input: `${'a'.repeat(10_000)}!` });
    expect(result.ok).toBe(false);
  });

  it('checks the one-string argument before the grammar', () => {
    const tool = parseToolIR(textTool({ syntax: 'regex', definition: '[0-9]+' }));
    const result = validateArguments(tool, { input: 42 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((error) => error.keyword)).toEqual(['type']);
  });

  it('leaves a Lark grammar unchecked and says so', () => {
    const tool = parseToolIR(textTool({ syntax: 'lark', definition: 'start: "a"+' }));
    expect(grammarCheckOf(tool)).toBe('not_checked');
    expect(validateArguments(tool, { input: 'anything' }).ok).toBe(true);
  });

  it('has no grammar check for unconstrained text and for JSON tools', () => {
    expect(grammarCheckOf(parseToolIR(textTool()))).toBeUndefined();
    expect(grammarCheckOf({})).toBeUndefined();
  });

  it('refuses a regex RE2 cannot compile and parameters other than the one string', () => {
    const parsed = safeParseToolIR({
      ...textTool({ syntax: 'regex', definition: '(?<=a)b' }),
      parameters: { type: 'object', properties: { sql: { type: 'string' } } },
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((issue) => issue.path)).toEqual([
      '/parameters',
      '/input_format/grammar/definition',
    ]);
    expect(parsed.issues[1]?.message).toMatch(/^is not a valid RE2 regular expression: /);
  });

  it('refuses an unknown syntax and an empty definition', () => {
    const parsed = safeParseToolIR({
      ...textTool(),
      input_format: { type: 'text', grammar: { syntax: 'peg', definition: '' } },
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.issues.map((issue) => issue.path)).toEqual([
        '/input_format/grammar/syntax',
        '/input_format/grammar/definition',
      ]);
    }
  });

  it('recompiles when the grammar changes under the same version', () => {
    const first = parseToolIR(textTool({ syntax: 'regex', definition: 'a+' }));
    expect(validateArguments(first, { input: 'aaa' }).ok).toBe(true);
    const second = parseToolIR(textTool({ syntax: 'regex', definition: 'b+' }));
    expect(validateArguments(second, { input: 'aaa' }).ok).toBe(false);
  });
});
