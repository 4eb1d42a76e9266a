/**
 * `npm run bench:api`: the registry's read path under load. Starts the API on Postgres (a fresh
 * `toolgate_bench_*` database on BENCH_POSTGRES_URL, or DATABASE_URL as is), registers 50 tools
 * with a stable release, then runs autocannon against GET /v1/exports and, in the same run,
 * against a bare Fastify route that returns the same JSON from memory: the ratio says what the
 * API costs on top of the network and HTTP stack.
 *
 *   BENCH_DURATION=10 BENCH_CONNECTIONS=10 npm run bench:api
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify from 'fastify';
import { adminQuery, apiCall, freePort, spawnApi, waitForReady } from './bench-support';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(__filename)('autocannon') as Autocannon;
const root = path.resolve(__dirname, '..');
const TOOL_COUNT = 50;
const duration = Number(process.env['BENCH_DURATION'] ?? 10);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
const serverUrl =
  process.env['BENCH_POSTGRES_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function seed(base: string, adminKey: string): Promise<string> {
  const team = (
    await apiCall(base, adminKey, {
      method: 'POST',
      path: '/v1/teams',
      body: { slug: 'bench', name: 'Bench' },
    })
  ).body as { id: string };
  const created = (
    await apiCall(base, adminKey, {
      method: 'POST',
      path: '/v1/api-keys',
      body: { name: 'bench', scopes: ['tools:read', 'tools:write'], team_id: team.id },
    })
  ).body as { key: string };
  for (let index = 0; index < TOOL_COUNT; index += 1) {
    const name = `bench_tool_${String(index).padStart(2, '0')}`;
    const tool = (
      await apiCall(base, created.key, {
        method: 'POST',
        path: '/v1/tools',
        body: { name, tags: ['bench'] },
      })
    ).body as { id: string };
    const ir = {
      schema_version: '1.0',
      id: tool.id,
      name,
      version: '1.0.0',
      description: `Benchmark tool ${index}: looks up a record by id and returns its fields.`,
      parameters: {
        type: 'object',
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 64 },
          fields: {
            type: 'array',
            items: { type: 'string', enum: ['name', 'email', 'created_at'] },
          },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
        },
        required: ['id'],
        additionalProperties: false,
      },
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 5000 },
      tags: ['bench'],
    };
    await apiCall(base, created.key, {
      method: 'POST',
      path: `/v1/tools/${tool.id}/versions`,
      body: { ir },
    });
    await apiCall(base, created.key, {
      method: 'PUT',
      path: `/v1/tools/${tool.id}/release/stable`,
      body: { version: '1.0.0' },
    });
  }
  return created.key;
}

function row(label: string, result: AutocannonResult): string {
  return `${label.padEnd(34)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   errors ${result.errors + result.non2xx}`;
}

async function main(): Promise<void> {
  const ownDatabase = process.env['DATABASE_URL'] === undefined;
  const databaseName = `toolgate_bench_${randomBytes(4).toString('hex')}`;
  let databaseUrl = process.env['DATABASE_URL'] ?? '';
  if (ownDatabase) {
    await adminQuery(serverUrl, `CREATE DATABASE "${databaseName}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const adminKey = `bench-admin-${randomUUID()}`;
  const { api, base, stop } = await spawnApi({ root, databaseUrl, adminKey });
  const bare = Fastify({ logger: false });
  try {
    await waitForReady(base, api);
    process.stdout.write(`Seeding ${TOOL_COUNT} tools...\n`);
    const key = await seed(base, adminKey);
    const exportPath = '/v1/exports?format=openai-chat&tags=bench';
    const headers = { authorization: `Bearer ${key}`, 'x-toolgate-subject': 'bench-user' };
    const body = await (await fetch(`${base}${exportPath}`, { headers })).text();
    bare.get('/v1/exports', async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(body),
    );
    const barePort = await freePort();
    await bare.listen({ port: barePort, host: '127.0.0.1' });
    process.stdout.write(
      `Export body: ${body.length} bytes, ${TOOL_COUNT} tools. ${duration}s per target, ${connections} connections.\n`,
    );
    // Warm both paths (JIT, caches) before measuring.
    await autocannon({ url: `${base}${exportPath}`, connections, duration: 2, headers });
    await autocannon({
      url: `http://127.0.0.1:${barePort}${exportPath}`,
      connections,
      duration: 2,
    });
    const apiResult = await autocannon({
      url: `${base}${exportPath}`,
      connections,
      duration,
      headers,
    });
    const bareResult = await autocannon({
      url: `http://127.0.0.1:${barePort}${exportPath}`,
      connections,
      duration,
    });
    process.stdout.write(
      `\n${row('registry API GET /v1/exports', apiResult)}\n${row('bare Fastify, same cached JSON', bareResult)}\n`,
    );
    process.stdout.write(
      `ratio (API / bare): ${(apiResult.requests.average / bareResult.requests.average).toFixed(2)}\n`,
    );
  } finally {
    await bare.close();
    await stop();
    if (ownDatabase)
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
