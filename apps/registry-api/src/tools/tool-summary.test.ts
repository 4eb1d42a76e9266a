import { parseToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_FIELD_LENGTH, searchFieldsOf, toolSummaryOf } from './tool-summary';

describe('searchFieldsOf', () => {
  it('names every property at any depth, with its description, each once', () => {
    expect(
      searchFieldsOf({
        type: 'object',
        properties: {
          latitude: { type: 'number', description: 'Latitude in decimal degrees.' },
          longitude: { type: 'number', description: 'Longitude in decimal degrees.' },
          address: {
            type: 'object',
            properties: { cityName: { type: 'string', description: 'City.' } },
          },
          stops: {
            type: 'array',
            items: { type: 'object', properties: { latitude: { type: 'number' } } },
          },
          unit: { anyOf: [{ $ref: '#/$defs/unit' }] },
          flag: true,
        },
        $defs: { unit: { type: 'object', properties: { symbol: { description: 'City.' } } } },
      }),
    ).toEqual({
      parameterNames: 'latitude longitude address stops unit flag cityName symbol',
      parameterDescriptions: 'Latitude in decimal degrees. Longitude in decimal degrees. City.',
    });
  });

  it('is empty for a tool without parameters', () => {
    expect(searchFieldsOf({ type: 'object' })).toEqual({
      parameterNames: '',
      parameterDescriptions: '',
    });
  });

  it('cuts very large schemas to the field limit', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 2_000 }, (_, index) => [
        `property_${index}`,
        { type: 'string', description: `The value of property number ${index}.` },
      ]),
    );
    const fields = searchFieldsOf({ type: 'object', properties });
    expect(fields.parameterNames).toHaveLength(MAX_SEARCH_FIELD_LENGTH);
    expect(fields.parameterDescriptions).toHaveLength(MAX_SEARCH_FIELD_LENGTH);
  });
});

describe('toolSummaryOf', () => {
  const ir = parseToolIR({
    schema_version: '1.0',
    id: '6f1c1d1e-2a3b-4c5d-8e9f-0a1b2c3d4e5f',
    name: 'geocoding.reverse',
    version: '1.0.0',
    description: 'The nearest address of a point.',
    parameters: {
      type: 'object',
      properties: { latitude: { type: 'number', description: 'Degrees north.' } },
    },
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5_000 },
  });

  it("takes the version's description and parameters, and its tags or else the tool's", () => {
    expect(toolSummaryOf(ir, ['maps'])).toEqual({
      description: 'The nearest address of a point.',
      tags: ['maps'],
      parameterNames: 'latitude',
      parameterDescriptions: 'Degrees north.',
    });
    expect(toolSummaryOf({ ...ir, tags: ['geo'] }, ['maps']).tags).toEqual(['geo']);
  });
});
