import { routes } from '@toolgate/contract';
import { describe, expect, it } from 'vitest';
import { checkResponse, declaresProblem } from './response-check';

const NO_BADGES = { destructive: false, imported_from: null, deprecated: [] };

const tool = {
  id: '7f0c3a52-7b0e-4f43-9d43-3f3c1d2a9e10',
  team_id: '0b8f4f0e-0d8a-4d51-9d1b-0f5f2c7f3a11',
  name: 'get_weather',
  description: '',
  tags: [],
  visibility: 'private',
  release: null,
  created_at: '2026-12-01T10:00:00.000Z',
  updated_at: '2026-12-01T10:00:00.000Z',
};

describe('checkResponse', () => {
  it('passes an answer that is its schema, as a value or as cached JSON text', () => {
    expect(checkResponse(routes.getTool, 200, tool)).toEqual([]);
    expect(checkResponse(routes.getTool, 200, JSON.stringify(tool))).toEqual([]);
  });

  it('names a member the contract does not have, a missing or mistyped one, and an undeclared status', () => {
    expect(checkResponse(routes.getTool, 200, { ...tool, secret_column: 1 })).toEqual([
      '/secret_column is not in the contract',
    ]);
    const { release: _release, ...withoutRelease } = tool;
    expect(checkResponse(routes.getTool, 200, withoutRelease)[0]).toMatch(/^\/release: /);
    expect(checkResponse(routes.getTool, 200, { ...tool, tags: 'weather' })[0]).toMatch(
      /^\/tags: /,
    );
    expect(checkResponse(routes.getTool, 201, tool)).toEqual(['status 201 is not declared']);
    expect(
      checkResponse(routes.listTools, 200, {
        items: [{ ...tool, badges: NO_BADGES, x: 1 }],
        next_cursor: null,
      }),
    ).toEqual(['/items/0/x is not in the contract']);
  });

  it('holds a body-less answer to having no body', () => {
    expect(checkResponse(routes.deleteSecret, 204, undefined)).toEqual([]);
    expect(checkResponse(routes.deleteSecret, 204, { deleted: true })).toEqual([
      'the route declares no body for this status',
    ]);
  });
});

describe('declaresProblem', () => {
  it('accepts the common codes and the route own ones, nothing else', () => {
    expect(declaresProblem(routes.getTool, 'not_found')).toBe(true);
    expect(declaresProblem(routes.getTool, 'rate_limited')).toBe(true);
    expect(declaresProblem(routes.getTool, 'missing_secrets')).toBe(false);
  });
});
