import { describe, expect, it } from 'vitest';
import { ToolIRError } from '../ir/parse-tool-ir';
import { validateArguments } from '../validation/validate-arguments';
import { defineTool } from './define-tool';

const behavior = { readonly: true, destructive: false, idempotent: true };
const constraints = { timeout_ms: 5000 };

const runDate = defineTool.text({
  name: 'run_report',
  description: 'Runs the report of one day, given as YYYY-MM-DD.',
  behavior,
  constraints,
  grammar: { syntax: 'regex', definition: '[0-9]{4}-[0-9]{2}-[0-9]{2}' },
  handler: (text) => ({ day: text }),
});

describe('defineTool.text', () => {
  it('builds a free-text ToolIR: the text format, its grammar and the one-string parameters', () => {
    expect(runDate.tool).toMatchObject({
      name: 'run_report',
      version: '1.0.0',
      input_format: {
        type: 'text',
        grammar: { syntax: 'regex', definition: '[0-9]{4}-[0-9]{2}-[0-9]{2}' },
      },
      parameters: {
        type: 'object',
        properties: { input: { type: 'string' } },
        required: ['input'],
        additionalProperties: false,
      },
    });
  });

  it('gives the handler the text once it matches the whole grammar', async () => {
    expect(runDate.parseArguments({ input: '2026-12-06' })).toEqual({
      ok: true,
      value: '2026-12-06',
    });
    const parsed = runDate.parseArguments({ input: '2026-12-06' });
    if (!parsed.ok) throw new Error('expected valid arguments');
    expect(await runDate.handler?.(parsed.value, {})).toEqual({ day: '2026-12-06' });
  });

  it('refuses a text off the grammar with the error the gateway gives', () => {
    const parsed = runDate.parseArguments({ input: 'yesterday' });
    expect(parsed).toEqual(validateArguments(runDate.tool, { input: 'yesterday' }));
    expect(parsed.ok ? [] : parsed.errors.map((error) => error.keyword)).toEqual(['grammar']);
    expect(runDate.parseArguments({}).ok).toBe(false);
  });

  it('takes any text without a grammar, and refuses a regex RE2 cannot compile', () => {
    const note = defineTool.text({
      name: 'note',
      description: 'Saves a note.',
      behavior,
      constraints,
    });
    expect(note.tool.input_format).toEqual({ type: 'text' });
    expect(note.parseArguments({ input: '' })).toEqual({ ok: true, value: '' });
    expect(() =>
      defineTool.text({
        name: 'bad',
        description: '',
        behavior,
        constraints,
        grammar: { syntax: 'regex', definition: '(a' },
      }),
    ).toThrow(ToolIRError);
  });
});
