import { parseToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { exportValidity } from './export-validity';

const tool = (properties: Record<string, unknown>) =>
  parseToolIR({
    schema_version: '1.0',
    id: '6f1d0b5c-3f2e-4c8a-9a57-3e2d7c1b9f40',
    name: 'list_items',
    version: '1.0.0',
    description: 'Lists the items.',
    parameters: { type: 'object', properties },
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5000 },
  });

describe('exportValidity', () => {
  it('is valid everywhere for a plain tool', () => {
    const validity = exportValidity(tool({ limit: { type: 'integer' } }));
    expect(Object.values(validity).every((format) => format.valid)).toBe(true);
  });

  it('is valid where the wire renames a key it refuses', () => {
    const renamed = exportValidity(tool({ 'array<any>': { type: 'string' } }));
    expect(renamed.gemini).toMatchObject({ valid: true });
    expect(renamed.gemini.downgrades).toBeGreaterThan(0);
  });

  it('lists a limit once, where the wire tool breaks it, though the conversion reports it too', () => {
    const recursive = parseToolIR({
      ...tool({ head: { $ref: '#/$defs/Node' } }),
      parameters: {
        type: 'object',
        properties: { head: { $ref: '#/$defs/Node' } },
        $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
      },
      provider_hints: { anthropic: { strict: true } },
    });
    expect(exportValidity(recursive).anthropic).toMatchObject({
      valid: false,
      problems: ['recursiveSchema at /input_schema: strict schemas may not recurse'],
    });
  });
});
