import { validate } from '@readme/openapi-parser';
import { createOpenApiDocument, ROUTE_LIST } from '@toolgate/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nestPathOf } from '../../src/contract/endpoint.decorator';
import { servedRoutesOf } from '../../src/problem/allowed-methods';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;

beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api?.close();
});

/** A contract path as Fastify knows it (`/v1/tools/:toolId`). */
function fastifyPathOf(path: string): string {
  const local = nestPathOf(path);
  return path.startsWith('/v1') ? `/v1${local === '/' ? '' : local}` : local;
}

describe('the OpenAPI document', () => {
  it('is served without credentials, is the contract, and is valid OpenAPI 3.1', async () => {
    const response = await api.request({ url: '/v1/openapi.json', key: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(
      JSON.parse(JSON.stringify(createOpenApiDocument({ routes: ROUTE_LIST, version: '1.0.0' }))),
    );
    const result = await validate(structuredClone(response.body) as never);
    expect(result.valid ? [] : result.errors.map((error) => error.message)).toEqual([]);
  });

  it('describes every route the API serves, and the API serves every route it describes', () => {
    const fastify = api.app.getHttpAdapter().getInstance();
    for (const route of ROUTE_LIST) {
      expect(
        fastify.hasRoute({ method: route.method.toUpperCase(), url: fastifyPathOf(route.path) }),
        `${route.operationId}: ${route.method.toUpperCase()} ${route.path} is not served`,
      ).toBe(true);
    }
    const described = new Set(
      ROUTE_LIST.map((route) => `${route.method.toUpperCase()} ${fastifyPathOf(route.path)}`),
    );
    const undocumented = servedRoutes(api).filter((route) => !described.has(route));
    expect(undocumented).toEqual([]);
  });

  it('serves the docs page', async () => {
    const docs = await api.request({ url: '/v1/docs', key: null });
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger');
  });
});

/** `METHOD /path` of every route Fastify serves, except the docs page's own assets and HEAD twins. */
function servedRoutes(app: TestApp): string[] {
  return servedRoutesOf(app.app.getHttpAdapter().getInstance())
    .filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS')
    .filter((route) => !route.url.startsWith('/v1/docs') && !route.url.startsWith('/v1/openapi.'))
    .map((route) => `${route.method} ${route.url}`);
}
