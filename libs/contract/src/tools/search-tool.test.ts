import { getAdapter, PROVIDERS } from '@toolgate/adapters';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ExportQuerySchema } from '../exports/exports.schemas';
import { McpPostQuerySchema } from '../mcp/mcp.schemas';
import {
  parseSearchToolArguments,
  SEARCH_TOOL_NAME,
  SEARCH_TOOL_PARAMETERS,
  SearchToolArgumentsSchema,
  searchToolIR,
} from './search-tool';

describe('the search tool', () => {
  const validate = new Ajv2020({ strict: false }).compile(SEARCH_TOOL_PARAMETERS);
  const samples: Array<[unknown, boolean]> = [
    [{ query: 'weather' }, true],
    [{ query: 'weather', limit: 1 }, true],
    [{ query: 'weather', limit: 20 }, true],
    [{}, false],
    [{ query: '' }, false],
    [{ query: 'x'.repeat(201) }, false],
    [{ query: 'weather', limit: 0 }, false],
    [{ query: 'weather', limit: 21 }, false],
    [{ query: 'weather', limit: 2.5 }, false],
    [{ query: 'weather', extra: true }, false],
    [{ query: 7 }, false],
  ];

  it.each(samples)('the model sees the bounds it is held to: %j', (args, valid) => {
    expect(validate(args)).toBe(valid);
    expect(SearchToolArgumentsSchema.safeParse(args).success).toBe(valid);
  });

  it('tells the model what to send, naming the field', () => {
    const parsed = parseSearchToolArguments({ query: 'weather', limit: 99 });
    expect(parsed).toEqual({ ok: false, message: expect.stringContaining('limit:') as string });
    expect(parseSearchToolArguments({ query: '  weather  ' })).toEqual({
      ok: true,
      value: { query: 'weather' },
    });
  });

  it.each(PROVIDERS)('is written in %s under its own name', (provider) => {
    const wire = getAdapter(provider).toolsToWire([searchToolIR()]);
    expect(wire.report.names).toEqual([{ name: SEARCH_TOOL_NAME, wireName: SEARCH_TOOL_NAME }]);
  });
});

describe('export queries for lazy loading', () => {
  const issuesOf = (query: Record<string, string>) => {
    const parsed = ExportQuerySchema.safeParse(query);
    return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
  };

  it('defers on the formats with a tool search, with the eager tools as a list', () => {
    const parsed = ExportQuerySchema.parse({
      format: 'anthropic',
      defer_loading: 'true',
      eager: 'weather.forecast,geo.lookup',
    });
    expect(parsed).toMatchObject({
      defer_loading: true,
      eager: ['weather.forecast', 'geo.lookup'],
    });
    expect(ExportQuerySchema.parse({ format: 'openai-responses' }).defer_loading).toBe(false);
  });

  it('refuses what cannot be served, on the parameter at fault', () => {
    expect(issuesOf({ format: 'openai-chat', defer_loading: 'true' })).toEqual(['defer_loading']);
    expect(issuesOf({ format: 'gemini', q: 'weather', names: 'a' })).toEqual(['names']);
    expect(issuesOf({ format: 'anthropic', eager: 'a' })).toEqual(['eager']);
    expect(issuesOf({ format: 'anthropic', defer_loading: 'yes' })).toEqual(['defer_loading']);
    expect(issuesOf({ format: 'mcp', q: '   ' })).toEqual(['q']);
    expect(issuesOf({ format: 'mcp', deferloading: 'true' })).toEqual(['']);
  });

  it('reads the MCP mode, all by default', () => {
    expect(McpPostQuerySchema.parse({}).tools).toBe('all');
    expect(McpPostQuerySchema.parse({ tools: 'search' }).tools).toBe('search');
    expect(McpPostQuerySchema.safeParse({ tools: 'some' }).success).toBe(false);
  });
});
