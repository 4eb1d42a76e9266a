import { PROBLEM_CODES } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { ROUTE_LIST, routes } from './routes';

describe('the routes', () => {
  it('are keyed by their operationId', () => {
    for (const [key, route] of Object.entries(routes)) expect(route.operationId).toBe(key);
  });

  it('have one route per method and path', () => {
    const seen = ROUTE_LIST.map((route) => `${route.method} ${route.path}`);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('declare exactly the path parameters their path has', () => {
    for (const route of ROUTE_LIST) {
      const placeholders = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const declared = Object.keys(route.params?.shape ?? {}).sort();
      expect(declared, route.operationId).toEqual(placeholders);
    }
  });

  it('name scopes unless public, and answer at least one success', () => {
    for (const route of ROUTE_LIST) {
      if (route.security === 'api_key')
        expect(route.scopes?.length, route.operationId).toBeGreaterThan(0);
      const statuses = Object.keys(route.responses).map(Number);
      expect(
        statuses.some((status) => status >= 200 && status < 300),
        route.operationId,
      ).toBe(true);
    }
  });

  it('declare only problem codes the error table answers with', () => {
    for (const route of ROUTE_LIST) {
      for (const code of route.problems) expect(PROBLEM_CODES, route.operationId).toContain(code);
    }
  });

  it('give an example body for every route with a body, each valid', () => {
    for (const route of ROUTE_LIST) {
      if (route.body === undefined || route.streaming === true) continue;
      const examples = Object.entries(route.bodyExamples ?? {});
      expect(examples.length, `${route.operationId} has no bodyExamples`).toBeGreaterThan(0);
      for (const [name, example] of examples) {
        const parsed = route.body.safeParse(example);
        expect(
          parsed.success,
          `${route.operationId} example ${name}: ${parsed.error?.message}`,
        ).toBe(true);
      }
    }
  });
});
