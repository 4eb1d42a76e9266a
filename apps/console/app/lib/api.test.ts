import { routes, type Problem, type Tool } from '@toolgate/contract';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ApiError, apiRequest, ContractMismatchError, setCsrfToken, type ApiResult } from './api';
import { problem, respond, stubFetch } from './testing/stub-fetch';

const TOOL_ID = '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11';
const TEAM_ID = '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90';
const TOOL: Tool = {
  id: TOOL_ID,
  team_id: TEAM_ID,
  name: 'orders.refund',
  description: 'Refunds an order.',
  tags: ['billing'],
  visibility: 'private',
  release: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
const TEAM = {
  id: TEAM_ID,
  slug: 'payments',
  name: 'Payments',
  allow_self_approval: false,
  created_at: '2026-01-01T00:00:00Z',
};
let restore: () => void = () => undefined;

beforeEach(() => setCsrfToken('csrf-1'));
afterEach(() => {
  restore();
  vi.unstubAllEnvs();
  setCsrfToken(null);
});

describe('apiRequest', () => {
  it('builds the URL from the route, its path parameters and its query', async () => {
    const network = stubFetch(
      respond(['GET', '/v1/tools?tag=billing&tag=write&q=refund&limit=10'], 200, {
        items: [{ ...TOOL, badges: { destructive: false, imported_from: null, deprecated: [] } }],
        next_cursor: null,
      }),
      respond(['PUT', `/v1/secrets/petstore%2Fapi_key?team_id=${TEAM_ID}`], 200, {
        name: 'petstore/api_key',
        team_id: TEAM_ID,
        created_by: 'admin',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-02T00:00:00Z',
        last_used_at: null,
        referenced_by: [],
      }),
    );
    restore = network.restore;

    const page = await apiRequest(routes.listTools, {
      query: { tag: ['billing', 'write'], q: 'refund', cursor: undefined, limit: 10 },
    });
    expect(page.items[0]?.name).toBe('orders.refund');
    const secret = await apiRequest(routes.rotateSecret, {
      params: { name: 'petstore/api_key' },
      query: { team_id: TEAM_ID },
      body: { value: 'new value' },
    });
    expect(secret.updated_at).toBe('2026-01-02T00:00:00Z');
    expect(network.sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /v1/tools?tag=billing&tag=write&q=refund&limit=10',
      `PUT /v1/secrets/petstore%2Fapi_key?team_id=${TEAM_ID}`,
    ]);
    expect(network.sent[1]).toMatchObject({
      body: { value: 'new value' },
      headers: { 'content-type': 'application/json' },
    });
  });

  it('sends the CSRF token on POST, PUT, PATCH and DELETE, never on GET', async () => {
    const network = stubFetch(
      respond(['GET', `/v1/tools/${TOOL_ID}`], 200, TOOL),
      respond(['POST', '/v1/tools'], 201, TOOL),
      respond(['PUT', `/v1/tools/${TOOL_ID}/release/stable`], 200, {
        tool_id: TOOL_ID,
        stable_version: '1.0.0',
        canary_version: null,
        canary_percent: 0,
        previous_stable_version: null,
        updated_by: 'admin',
        updated_at: '2026-01-01T00:00:00Z',
      }),
      respond(['PATCH', `/v1/teams/${TEAM_ID}`], 200, { ...TEAM, allow_self_approval: true }),
      respond(['DELETE', `/v1/secrets/ORDERS_API_KEY?team_id=${TEAM_ID}`], 204),
    );
    restore = network.restore;

    await apiRequest(routes.getTool, { params: { toolId: TOOL_ID } });
    await apiRequest(routes.createTool, { body: { name: 'orders.refund' } });
    await apiRequest(routes.setStableVersion, {
      params: { toolId: TOOL_ID },
      body: { version: '1.0.0' },
    });
    await apiRequest(routes.updateTeam, {
      params: { teamId: TEAM_ID },
      body: { allow_self_approval: true },
    });
    const deleted = await apiRequest(routes.deleteSecret, {
      params: { name: 'ORDERS_API_KEY' },
      query: { team_id: TEAM_ID },
    });
    expect(deleted).toBeUndefined();
    expect(
      network.sent.map((request) => [request.method, request.headers['x-csrf-token'] ?? null]),
    ).toEqual([
      ['GET', null],
      ['POST', 'csrf-1'],
      ['PUT', 'csrf-1'],
      ['PATCH', 'csrf-1'],
      ['DELETE', 'csrf-1'],
    ]);
    expect(network.sent.every((request) => request.headers['accept'] === 'application/json')).toBe(
      true,
    );
  });

  it("turns a problem answer into ApiError carrying the contract's Problem", async () => {
    const answer: Problem = {
      ...problem(422, 'The tool name is taken.', {
        code: 'invalid_request',
        errors: [{ path: '/body/name', message: 'must be unique in the team' }],
      }),
      request_id: 'req-1',
      // Extension members a code adds are kept, not refused.
      conflicting_tool_id: TOOL_ID,
    };
    restore = stubFetch(respond(['POST', '/v1/tools'], 422, answer)).restore;

    const failure: unknown = await apiRequest(routes.createTool, {
      body: { name: 'orders.refund' },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    const error = failure as ApiError;
    expect(error.status).toBe(422);
    expect(error.problem).toEqual(answer);
    expect(error.problem.code).toBe('invalid_request');
    expect(error.issuesFor('name')).toEqual(['must be unique in the team']);
    expect(error.message).toBe('The tool name is taken.');
  });

  it('throws in development when an answer does not match the contract, naming the route and the members', async () => {
    const { id: _id, release: _release, ...withoutId } = TOOL;
    restore = stubFetch(
      respond(['GET', `/v1/tools/${TOOL_ID}`], 200, { ...withoutId, visibility: 'team' }),
    ).restore;

    const failure: unknown = await apiRequest(routes.getTool, {
      params: { toolId: TOOL_ID },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ContractMismatchError);
    const error = failure as ContractMismatchError;
    expect(error.operationId).toBe('getTool');
    expect(error.message).toMatch(
      /^The answer of getTool \(status 200\) does not match the contract/,
    );
    expect(error.issues.map((issue) => issue.split(':')[0])).toEqual(
      expect.arrayContaining(['/id', '/visibility', '/release']),
    );
  });

  it('also refuses, in development, a problem that is not shaped as the contract says', async () => {
    restore = stubFetch(
      respond(['GET', `/v1/tools/${TOOL_ID}`], 404, { title: 'Not Found', status: 404 }),
    ).restore;
    await expect(apiRequest(routes.getTool, { params: { toolId: TOOL_ID } })).rejects.toThrow(
      ContractMismatchError,
    );
  });

  it('trusts the types in production: no parse, but a problem still becomes ApiError', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const network = stubFetch(
      respond(['GET', `/v1/tools/${TOOL_ID}`], 200, { name: 'not checked' }),
      respond(['GET', '/v1/tools/search?q=refund&limit=20'], 502, '<html>Bad gateway</html>'),
      respond(['POST', '/v1/tools'], 409, problem(409, 'Taken.', { code: 'conflict' })),
    );
    restore = network.restore;

    expect(await apiRequest(routes.getTool, { params: { toolId: TOOL_ID } })).toEqual({
      name: 'not checked',
    });
    const conflict: unknown = await apiRequest(routes.createTool, { body: { name: 'x' } }).catch(
      (error: unknown) => error,
    );
    expect(conflict).toMatchObject({
      status: 409,
      problem: { code: 'conflict', detail: 'Taken.' },
    });
    // Something in front of the API answered: the page still gets a problem it can show.
    const proxy: unknown = await apiRequest(routes.searchTools, {
      query: { q: 'refund', limit: 20 },
    }).catch((error: unknown) => error);
    expect(proxy).toBeInstanceOf(ApiError);
    expect((proxy as ApiError).problem).toMatchObject({
      status: 502,
      code: 'unavailable',
      errors: [],
    });
  });

  it('reports an API it cannot reach as ApiError with status 0', async () => {
    const original = globalThis.fetch;
    globalThis.fetch = vi.fn(() => Promise.reject(new TypeError('fetch failed')));
    restore = () => (globalThis.fetch = original);
    await expect(apiRequest(routes.listTeams, {})).rejects.toMatchObject({
      status: 0,
      problem: { title: 'The console cannot reach the registry API' },
    });
  });

  it('types each request and answer from its route', () => {
    // Compile-time only (tsc checks the test files): none of these requests is ever sent.
    const never = false as boolean;
    if (never) {
      // @ts-expect-error a route with path parameters needs them
      void apiRequest(routes.getTool, {});
      // @ts-expect-error a route with a required body needs it
      void apiRequest(routes.createTool, {});
      // @ts-expect-error the body is the route's: no such member
      void apiRequest(routes.createTool, { body: { name: 'x', owner: 'me' } });
      // @ts-expect-error the query is the route's: status is an enum
      void apiRequest(routes.listCalls, { query: { status: 'done' } });
      // @ts-expect-error a streaming route is not a JSON answer
      void apiRequest(routes.streamCallEvents, { params: { callId: TOOL_ID } });
    }
    expectTypeOf<ApiResult<typeof routes.getTool>>().toEqualTypeOf<Tool>();
    expectTypeOf<ApiResult<typeof routes.deleteSecret>>().toEqualTypeOf<undefined>();
    // exportTools also declares a 304, which the console never asks for.
    expectTypeOf<ApiResult<typeof routes.exportTools>>().not.toBeUndefined();
  });
});
