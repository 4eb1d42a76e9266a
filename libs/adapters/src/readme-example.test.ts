import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
// #region README example: imports
import { getAdapter, parseToolSearches, toolIdFromName } from './index';
import { parseToolIR } from '@toolgate/toolir';
// #endregion
// #region README example: repair imports
import { repairCutArguments } from './repair/repair-cut-arguments';
// #endregion

const README = new URL('../README.md', import.meta.url);
const SELF = new URL(import.meta.url);

/** The lines between `// #region <name>` and the next `// #endregion`, without their common indent. */
function region(source: string, name: string): string {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${name}`);
  const end = lines.findIndex((line, index) => index > start && line.trim() === '// #endregion');
  const body = lines.slice(start + 1, end);
  const indent = Math.min(
    ...body.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0),
  );
  return body.map((line) => line.slice(indent)).join('\n');
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** Checks that the README holds the imports region and the example region as one block. */
function expectInReadme(importsRegion: string, exampleRegion: string): void {
  const source = readFileSync(SELF, 'utf8');
  const imports = region(source, importsRegion).replace(
    /from '\.\/[^']*';/g,
    "from '@toolgate/adapters';",
  );
  const example = `${imports}\n\n${region(source, exampleRegion)}`;
  const blocks = [...readFileSync(README, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)];
  expect(blocks.map((block) => (block[1] ?? '').trimEnd())).toContain(example);
}

describe('README example: deferred loading and tool search', () => {
  it('is the code this test runs, word for word', () => {
    expectInReadme('README example: imports', 'README example: tool search');
  });

  it('defers tools, reads what a search loaded, and reports formats without deferred loading', () => {
    const printed: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => {
      printed.push(values);
    });
    // #region README example: tool search
    const catalog = ['weather_forecast', 'payments_refund', 'calendar_create_event'].map((name) =>
      parseToolIR({
        schema_version: '1.0',
        id: toolIdFromName(name),
        name,
        version: '1.0.0',
        description: `The ${name.replace(/_/g, ' ')} tool.`,
        parameters: { type: 'object', properties: {} },
        behavior: { readonly: false, destructive: false, idempotent: false },
        constraints: { timeout_ms: 5000 },
      }),
    );

    // Every tool deferred but the one used on most turns: the model sees the others' names only,
    // until its tool search loads them.
    const anthropic = getAdapter('anthropic');
    const { tools } = anthropic.toolsToWire(catalog, {
      deferLoading: (tool) => tool.name !== 'weather_forecast',
    });
    console.log(tools.length, tools[0]); // 4 { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }

    // The model's turn: what it searched for and which tools the search loaded.
    const message = {
      role: 'assistant',
      content: [
        {
          type: 'server_tool_use',
          id: 'srvtoolu_1',
          name: 'tool_search_tool_bm25',
          input: { query: 'refund a payment' },
        },
        {
          type: 'tool_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: {
            type: 'tool_search_tool_search_result',
            tool_references: [{ type: 'tool_reference', tool_name: 'payments_refund' }],
          },
        },
      ],
    };
    const { calls, results } = parseToolSearches('anthropic', message, { tools: catalog });
    console.log(calls[0]?.query, results[0]?.tools); // refund a payment [ 'payments_refund' ]

    // Chat Completions has no deferred loading: every tool is sent, and the report says so.
    const chat = getAdapter('openai-chat').toolsToWire(catalog, { deferLoading: true });
    console.log(chat.tools.length, chat.report.entries[0]?.keyword); // 3 defer_loading
    // #endregion
    expect(printed).toEqual([
      [4, { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }],
      ['refund a payment', ['payments_refund']],
      [3, 'defer_loading'],
    ]);
  });
});

describe('README example: cut-off arguments', () => {
  it('is the code this test runs, word for word', () => {
    expectInReadme('README example: repair imports', 'README example: repair');
  });

  it('completes a cut call of an opted-in tool and refuses an ambiguous one', () => {
    const printed: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => {
      printed.push(values);
    });
    // #region README example: repair
    const search = parseToolIR({
      schema_version: '1.0',
      id: toolIdFromName('search'),
      name: 'search',
      version: '1.0.0',
      description: 'Search the web.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          limit: { type: 'integer', default: 10 },
          note: { type: 'string' },
        },
        required: ['query'],
      },
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 5000 },
      repair_cut_arguments: true,
    });

    // The model hit its token limit inside an optional free-text note.
    const repaired = repairCutArguments('{"query": "trams in Oslo", "note": "after mid', search);
    if (repaired.ok) console.log(repaired.arguments, repaired.repair.dropped);
    // { query: 'trams in Oslo', limit: 10 } [ { path: '/note', cut: 'string' } ]

    // Inside the required query, any continuation was possible: no repair.
    const refused = repairCutArguments('{"query": "trams in Os', search);
    if (!refused.ok) console.log(refused.reason); // /query is required, and its string value was cut off
    // #endregion
    expect(printed).toEqual([
      [{ query: 'trams in Oslo', limit: 10 }, [{ path: '/note', cut: 'string' }]],
      ['/query is required, and its string value was cut off'],
    ]);
  });
});
