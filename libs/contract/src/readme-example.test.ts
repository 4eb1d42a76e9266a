import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// #region README example: imports
import { createOpenApiDocument, readRouteAnswer, routeUrl, routes, ROUTE_LIST } from './index';
// #endregion

const README = new URL('../README.md', import.meta.url);
const SELF = new URL(import.meta.url);
const TOOL_ID = '7f0c3a52-7b0e-4f43-9d43-3f3c1d2a9e10';

/** The lines between `// #region <name>` and the next `// #endregion`, without their common indent. */
function region(source: string, name: string): string {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${name}`);
  const end = lines.findIndex((line, index) => index > start && line.trim() === '// #endregion');
  const body = lines.slice(start + 1, end);
  const indent = Math.min(
    ...body.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0),
  );
  return body.map((line) => line.slice(indent)).join('\n');
}

// A stand-in for the registry API: one tool, and a problem for anything else.
const server = createServer((request, response) => {
  if (request.url === `/v1/tools/${TOOL_ID}`) {
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        id: TOOL_ID,
        team_id: '0b8f4f0e-0d8a-4d51-9d1b-0f5f2c7f3a11',
        name: 'get_weather',
        description: 'Current weather for a city.',
        tags: ['weather'],
        visibility: 'private',
        release: { stable_version: '1.0.0', canary_version: null, canary_percent: 0 },
        created_at: '2026-12-01T10:00:00.000Z',
        updated_at: '2026-12-01T10:00:00.000Z',
      }),
    );
    return;
  }
  response.statusCode = 404;
  response.setHeader('content-type', 'application/problem+json');
  response.end(
    JSON.stringify({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No such tool.',
      code: 'not_found',
      errors: [],
    }),
  );
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('README example', () => {
  it('is the code this test runs, word for word', () => {
    const source = readFileSync(SELF, 'utf8');
    const imports = region(source, 'README example: imports').replace(
      "from './index';",
      "from '@toolgate/contract';",
    );
    const blocks = [...readFileSync(README, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)];
    expect(blocks).toHaveLength(1);
    expect((blocks[0]?.[1] ?? '').trimEnd()).toBe(
      `${imports}\n\n${region(source, 'README example: code')}`,
    );
  });

  it('requests a route and reads its answer with the route schemas', async () => {
    const printed: unknown[][] = [];
    const print = (...values: unknown[]) => printed.push(values);
    const apiKey = 'tg_example';
    for (const toolId of [TOOL_ID, '00000000-0000-4000-8000-000000000000']) {
      // #region README example: code
      // A request built from the route, and its answer read with the route's schemas.
      const route = routes.getTool;
      const response = await fetch(new URL(routeUrl(route, { params: { toolId } }), baseUrl), {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      const answer = readRouteAnswer(route, response.status, await response.json());
      if (answer.kind === 'success') print(answer.body.name, answer.body.release?.stable_version);
      else if (answer.kind === 'problem') print(answer.problem.code, answer.problem.detail);
      else print('not the contract:', answer.issues);

      // The OpenAPI 3.1 document the API serves at /v1/openapi.json.
      const document = createOpenApiDocument({ routes: ROUTE_LIST, version: '1.0.0' });
      print(Object.keys(document.paths ?? {}).length, 'paths');
      // #endregion
    }
    expect(printed[0]).toEqual(['get_weather', '1.0.0']);
    expect(printed[2]).toEqual(['not_found', 'No such tool.']);
    expect(printed[1]?.[0]).toBeGreaterThan(30);
  });
});
