import { defineTool, parseToolIR } from '@toolgate/toolir';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { implementTool } from './implement-tool';
import { localTools } from './local-tools';

const context = { provider: 'openai-responses' as const, step: 0 };

/** A ToolIR as the registry serves it: JSON, with a format and a default zod alone would not judge as Ajv does. */
const bookIr = parseToolIR({
  schema_version: '1.0',
  id: '7f1a6c2e-3b4d-4c5e-8f90-112233445566',
  name: 'book_room',
  version: '2.1.0',
  description: 'Books a meeting room.',
  behavior: { readonly: false, destructive: false, idempotent: false },
  constraints: { timeout_ms: 5_000 },
  parameters: {
    type: 'object',
    properties: {
      room: { type: 'string', minLength: 1 },
      day: { type: 'string', format: 'date' },
      hours: { type: 'integer', minimum: 1, maximum: 8, default: 1 },
    },
    required: ['room', 'day'],
    additionalProperties: false,
  },
});

interface BookRoom {
  arguments: { room: string; day: string; hours?: number };
  result: { booked: string };
}

describe('implementTool', () => {
  it('gives the handler typed arguments that passed the ToolIR, defaults filled in', async () => {
    const seen: unknown[] = [];
    const book = implementTool<BookRoom>(bookIr, (args) => {
      expectTypeOf(args).toEqualTypeOf<BookRoom['arguments']>();
      seen.push(args);
      return { booked: `${args.room} on ${args.day}` };
    });
    const results = await localTools([book])(
      [
        { id: 'c1', name: 'book_room', arguments: { room: 'Fjord', day: '2026-12-07' } },
        { id: 'c2', name: 'book_room', arguments: { room: 'Fjord', day: 'tomorrow' } },
      ],
      context,
    );
    expect(seen).toEqual([{ room: 'Fjord', day: '2026-12-07', hours: 1 }]);
    expect(results[0]).toMatchObject({ ok: true, data: { booked: 'Fjord on 2026-12-07' } });
    expect(results[1]).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_arguments',
        message: 'Invalid arguments: /day must be a valid date (YYYY-MM-DD)',
      },
    });
  });

  it('parses arguments on its own with the errors validateArguments gives', () => {
    const book = implementTool<BookRoom>(bookIr, () => ({ booked: '' }));
    expect(book.parseArguments({ room: 'A', day: '2026-12-07', hours: 9 })).toMatchObject({
      ok: false,
      errors: [{ path: '/hours', keyword: 'maximum' }],
    });
  });
});

describe('free-text local tools (defineTool.text) in localTools', () => {
  const sql = defineTool.text({
    name: 'run_sql',
    description: 'Runs one read-only SELECT.',
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5_000 },
    grammar: { syntax: 'regex', definition: 'SELECT [a-z_, *]+ FROM [a-z_]+' },
    handler: (text) => {
      expectTypeOf(text).toEqualTypeOf<string>();
      return { ran: text };
    },
  });

  it('runs the handler with the text, and refuses a text off the grammar as invalid_arguments', async () => {
    const results = await localTools([sql])(
      [
        { id: 'c1', name: 'run_sql', arguments: { input: 'SELECT * FROM orders' } },
        { id: 'c2', name: 'run_sql', arguments: { input: 'DROP TABLE orders' } },
      ],
      context,
    );
    expect(results[0]).toMatchObject({ ok: true, data: { ran: 'SELECT * FROM orders' } });
    expect(results[1]).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', details: { errors: [{ keyword: 'grammar' }] } },
    });
  });

  it('exports the tool as an OpenAI custom tool with its grammar', () => {
    expect(localTools([sql]).toWire('openai-responses')).toMatchObject([
      { type: 'custom', name: 'run_sql', format: { type: 'grammar', syntax: 'regex' } },
    ]);
  });
});
