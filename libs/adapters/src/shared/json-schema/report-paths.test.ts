import { describe, expect, it } from 'vitest';
import { buildTool } from '../../../test/support/tool-factory';
import { getAdapter } from '../../get-adapter';

// A oneOf inside an anyOf: the wire has one anyOf, the report speaks of the IR's places.
const tool = buildTool({
  name: 'contact',
  parameters: {
    type: 'object',
    properties: {
      reach: {
        anyOf: [
          { type: 'boolean' },
          {
            oneOf: [
              { type: 'string', format: 'email', minLength: 3 },
              { type: 'integer', exclusiveMinimum: 0 },
            ],
          },
        ],
      },
    },
  },
});

describe('report paths are JSON Pointers into the IR schema', () => {
  it('gemini: what changed inside a oneOf branch is reported at that branch', () => {
    const paths = getAdapter('gemini')
      .toolsToWire([tool])
      .report.entries.map((entry) => entry.path);
    expect(paths).toContain('/properties/reach/anyOf/1/oneOf');
    expect(paths.some((path) => path.startsWith('/properties/reach/anyOf/1/oneOf/0/'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/properties/reach/anyOf/1/oneOf/1/'))).toBe(true);
    expect(paths.some((path) => path.includes('/anyOf/1/anyOf/'))).toBe(false);
  });

  it('openai strict: the same', () => {
    const paths = getAdapter('openai-chat')
      .toolsToWire([tool], { strict: true })
      .report.entries.map((entry) => entry.path);
    expect(paths).toContain('/properties/reach/anyOf/1/oneOf');
    expect(paths.some((path) => path.startsWith('/properties/reach/anyOf/1/oneOf/0/'))).toBe(true);
    expect(paths.some((path) => path.includes('/anyOf/1/anyOf/'))).toBe(false);
  });
});
