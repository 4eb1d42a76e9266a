import { defineTool, parseToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateToolTypes, typeStemOf } from './generate-tool-types';

const fields = {
  behavior: { readonly: true, destructive: false, idempotent: true },
  constraints: { timeout_ms: 5_000 },
};
const weather = defineTool({
  ...fields,
  name: 'get_weather',
  description: 'Current weather.',
  parameters: z.strictObject({ city: z.string(), unit: z.enum(['c', 'f']).optional() }),
  outputSchema: z.object({ temperature: z.number() }),
}).tool;
const tree = parseToolIR({
  ...fields,
  schema_version: '1.0',
  id: '00000000-0000-4000-8000-0000000000b1',
  name: 'walk-tree',
  version: '1.2.0',
  description: 'Walks a tree.',
  parameters: {
    type: 'object',
    title: 'Shared',
    properties: { root: { $ref: '#/$defs/node' } },
    required: ['root'],
    $defs: {
      node: {
        type: 'object',
        properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
      },
    },
  },
});
const sql = defineTool.text({
  ...fields,
  name: 'run_sql',
  description: 'Runs SQL.',
  grammar: { syntax: 'regex', definition: 'SELECT .+' },
}).tool;

describe('generateToolTypes', () => {
  it('names types after the tool, recursive definitions included, and maps them by name', async () => {
    const types = await generateToolTypes([weather, tree, sql]);
    expect(types).toMatchSnapshot();
    expect(types).toContain('export interface GetWeatherArguments');
    expect(types).toContain('export interface GetWeatherResult');
    expect(types).toContain('export interface WalkTreeArgumentsNode');
    expect(types).toContain('"run_sql": { arguments: RunSqlArguments; result: unknown };');
  });

  it('gives the same bytes for the same versions, in any order', async () => {
    expect(await generateToolTypes([sql, tree, weather])).toBe(
      await generateToolTypes([weather, tree, sql]),
    );
  });

  it('makes type names of tool names', () => {
    expect(typeStemOf('get_weather')).toBe('GetWeather');
    expect(typeStemOf('a.b-c')).toBe('ABC');
    expect(typeStemOf('3d_print')).toBe('T3dPrint');
  });
});
