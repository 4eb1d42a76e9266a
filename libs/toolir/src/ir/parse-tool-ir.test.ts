import { describe, expect, it } from 'vitest';
import { parseToolIR, ToolIRError } from './parse-tool-ir';

const valid = {
  schema_version: '1.0',
  id: '0b6f3f5e-3c1a-4c39-9f4e-2f1f7b1d2a10',
  name: 'get_weather',
  version: '1.0.0',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  behavior: { readonly: true, destructive: false, idempotent: true },
  constraints: { timeout_ms: 5000 },
};

describe('parseToolIR (smoke)', () => {
  it('accepts a minimal tool and applies defaults', () => {
    const tool = parseToolIR(valid);
    expect(tool.behavior.requires_approval).toBe('if_destructive');
    expect(tool.constraints.max_retries).toBe(0);
  });
  it('rejects a non-object root with a ToolIRError', () => {
    expect(() => parseToolIR({ ...valid, parameters: { type: 'string' } })).toThrow(ToolIRError);
  });
});
