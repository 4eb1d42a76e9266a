import { describe, expect, it } from 'vitest';
import { routes } from '../routes';
import { readRouteAnswer, routeUrl } from './route-client';

describe('routeUrl', () => {
  it('fills and encodes path parameters and writes the query as the API reads it', () => {
    expect(routeUrl(routes.getTool, { params: { toolId: 'a/b c' } })).toBe('/v1/tools/a%2Fb%20c');
    expect(
      routeUrl(routes.listTools, {
        query: { tag: ['a', 'b'], q: 'weather now', cursor: undefined },
      }),
    ).toBe('/v1/tools?tag=a&tag=b&q=weather+now');
  });

  it('refuses a missing path parameter rather than requesting the wrong path', () => {
    expect(() => routeUrl(routes.getTool)).toThrow(/toolId/);
  });
});

describe('readRouteAnswer', () => {
  it('parses a problem document, and names what does not match the contract', () => {
    const problem = readRouteAnswer(routes.getTool, 404, {
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No such tool.',
      code: 'not_found',
      errors: [],
      request_id: 'r1',
    });
    expect(problem).toMatchObject({
      kind: 'problem',
      problem: { code: 'not_found', request_id: 'r1' },
    });
    expect(readRouteAnswer(routes.getTool, 200, { id: 'x' })).toMatchObject({ kind: 'unexpected' });
    expect(readRouteAnswer(routes.getTool, 204, undefined)).toMatchObject({
      kind: 'unexpected',
      issues: ['status 204 is not an answer of getTool'],
    });
    expect(readRouteAnswer(routes.getTool, 502, '<html>bad gateway</html>')).toMatchObject({
      kind: 'unexpected',
    });
  });
});
