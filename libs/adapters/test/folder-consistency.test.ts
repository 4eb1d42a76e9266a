import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVIDERS, type Provider } from '../src/index';

const SRC = path.resolve(import.meta.dirname, '../src');

/** How each format spells itself in file names and in exported identifiers. */
const TOKENS: Record<Provider, { file: string; pascal: string }> = {
  'openai-chat': { file: 'openai-chat', pascal: 'OpenAIChat' },
  'openai-responses': { file: 'openai-responses', pascal: 'OpenAIResponses' },
  anthropic: { file: 'anthropic', pascal: 'Anthropic' },
  gemini: { file: 'gemini', pascal: 'Gemini' },
  mcp: { file: 'mcp', pascal: 'Mcp' },
};

/** The function set every provider folder implements (`<F>` is the format). */
const REQUIRED = [
  'convertToolsTo<F>',
  'convertToolFrom<F>',
  'downgradeSchemaFor<F>',
  'parse<F>ToolCalls',
  'convertCallsTo<F>',
  'convertResultsTo<F>',
  'parse<F>ToolResults',
  '<f>Adapter',
];

/** Extra runtime exports, listed so that a new one is a decision, not an accident. */
const EXTRAS: Record<Provider, string[]> = {
  'openai-chat': [],
  'openai-responses': ['OPENAI_RESPONSES_ITEM_TYPES', 'locateOpenAIResponsesItems'],
  anthropic: ['ANTHROPIC_BLOCK_TYPES', 'locateAnthropicBlocks'],
  gemini: ['GEMINI_PART_FIELDS', 'geminiSchemaToJsonSchema', 'locateGeminiParts'],
  mcp: [
    'MCP_TRUNCATED_META_KEY',
    'behaviorFromMcpAnnotations',
    'convertResultToMcp',
    'outputSchemaForMcp',
  ],
};

function normalize(name: string, provider: Provider): string {
  const { pascal } = TOKENS[provider];
  const lower = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  return name.replace(pascal, '<F>').replace(new RegExp(`^${lower}`), '<f>');
}

function sourceFiles(provider: Provider): string[] {
  return readdirSync(path.join(SRC, provider))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort();
}

async function runtimeExports(provider: Provider): Promise<string[]> {
  const names: string[] = [];
  for (const file of sourceFiles(provider)) {
    const module = (await import(path.join(SRC, provider, file))) as Record<string, unknown>;
    // zod schemas of the wire payloads differ by nature; the function set is what must match.
    names.push(
      ...Object.keys(module).filter(
        (name) => typeof (module[name] as { safeParse?: unknown } | null)?.safeParse !== 'function',
      ),
    );
  }
  return names.sort();
}

describe('every provider folder has the same shape', () => {
  it('has the same files, named after its format', () => {
    const shapes = PROVIDERS.map((provider) =>
      sourceFiles(provider)
        .map((file) => file.replace(TOKENS[provider].file, '<format>'))
        .sort(),
    );
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    for (const provider of PROVIDERS) {
      const fixtures = readdirSync(path.join(SRC, provider, '__fixtures__'));
      expect(fixtures.filter((file) => file.endsWith('.json')).length).toBeGreaterThan(0);
      expect(
        readdirSync(path.join(SRC, provider)).some((file) => file.endsWith('-adapter.test.ts')),
      ).toBe(true);
    }
  });

  it.each(PROVIDERS)(
    '%s exports the shared function set (and only the listed extras)',
    async (provider) => {
      const exported = await runtimeExports(provider);
      const normalized = exported.map((name) => normalize(name, provider));
      expect(normalized.filter((name) => REQUIRED.includes(name)).sort()).toEqual(
        [...REQUIRED].sort(),
      );
      const extras = exported.filter((name) => !REQUIRED.includes(normalize(name, provider)));
      expect(extras).toEqual([...EXTRAS[provider]].sort());
    },
  );
});
