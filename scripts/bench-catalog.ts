/**
 * `npm run bench:catalog`: what the catalog's reads cost as it grows. Starts the API on a fresh
 * Postgres database (BENCH_POSTGRES_URL's server), seeds 1,000 tools (5 teams, 2 published versions
 * each, ~10 parameters per schema), measures, grows the catalog to 10,000 and measures again, then
 * prints each read at both sizes with the ratio between them. Every read asks for the same amount
 * at both sizes, so the goal is a ratio near 1 for each row (at most linear in what is returned,
 * never in the catalog's size).
 *
 * Each sample is a cache miss: the export and MCP rows vary `limit` or the cursor per request (the
 * export cache keys on both), the others have no cache. The figure is the median of the samples;
 * the whole walks (every export page, every MCP page) are timed once and print what they returned.
 *
 *   BENCH_SAMPLES=15 npm run bench:catalog
 *   BENCH_CPU_PROFILE=/tmp/profiles npm run bench:catalog   (a CPU profile of the API)
 *   BENCH_KEEP_DATABASE=1 npm run bench:catalog   (keeps the seeded database, e.g. for EXPLAIN)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { adminQuery, apiCall, spawnApi, waitForReady } from './bench-support';

const root = path.resolve(__dirname, '..');
const serverUrl =
  process.env['BENCH_POSTGRES_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const SAMPLES = Number(process.env['BENCH_SAMPLES'] ?? 15);
const SIZES = [1_000, 10_000] as const;
const TEAMS = 5;
const DOMAINS = ['crm', 'billing', 'weather', 'files', 'calendar', 'tickets', 'maps', 'mail'];
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'export', 'sync'];
const NOUNS = ['contact', 'invoice', 'forecast', 'document', 'event', 'issue', 'route', 'message'];

interface Team {
  id: string;
  key: string;
}

/** A tool's IR as the registry stores it: ~10 typed parameters with descriptions. */
function irOf(
  tool: { id: string; name: string; tags: string[] },
  version: string,
): Record<string, unknown> {
  const { id, name, tags } = tool;
  const properties: Record<string, unknown> = {};
  for (let index = 0; index < 10; index += 1) {
    properties[`field_${index}`] =
      index % 3 === 0
        ? { type: 'integer', minimum: 0, maximum: 1000, description: `Numeric option ${index}.` }
        : { type: 'string', maxLength: 200, description: `Text option ${index} of ${name}.` };
  }
  return {
    schema_version: '1.0',
    id,
    name,
    version,
    description: `${name.replaceAll('_', ' ')}: reads or changes records of the ${tags[0] ?? ''} system.`,
    parameters: { type: 'object', properties, required: ['field_1'], additionalProperties: false },
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5000 },
    tags,
  };
}

/** Inserts tools `from`..`to` (exclusive), spread over the teams, in batches of one statement each. */
async function seed(
  database: pg.Client,
  teams: Team[],
  range: { from: number; to: number },
): Promise<void> {
  const { from, to } = range;
  for (let start = from; start < to; start += 500) {
    const tools: unknown[][] = [];
    const versions: unknown[][] = [];
    for (let index = start; index < Math.min(to, start + 500); index += 1) {
      const id = randomUUID();
      const domain = DOMAINS[index % DOMAINS.length] as string;
      const name = `${domain}_${VERBS[(index >> 3) % VERBS.length]}_${NOUNS[(index >> 6) % NOUNS.length]}_${String(index).padStart(5, '0')}`;
      // The first 1,000 tools carry the 50 group tags (20 tools each), so a tag selects the same
      // number of tools at both sizes; the rest carry 500 tags of their own.
      const tags = [domain, index < 1_000 ? `group-${index % 50}` : `bulk-${index % 500}`];
      const team = teams[index % teams.length] as Team;
      // Every other tool is public: a team's key sees its own and the public ones of the others.
      tools.push([
        id,
        team.id,
        name,
        `${name.replaceAll('_', ' ')} for the ${domain} system`,
        tags,
        index % 2 === 0 ? 'public' : 'private',
      ]);
      for (const version of ['1.0.0', '1.1.0'])
        versions.push([randomUUID(), id, version, irOf({ id, name, tags }, version)]);
    }
    const placeholders = (rows: unknown[][], width: number): string =>
      rows
        .map(
          (_row, row) =>
            `(${Array.from({ length: width }, (_cell, cell) => `$${row * width + cell + 1}`).join(', ')})`,
        )
        .join(', ');
    await database.query(
      `INSERT INTO tools (id, team_id, name, description, tags, visibility)
       SELECT id::uuid, team_id::uuid, name, description, tags::text[], visibility::tool_visibility
       FROM (VALUES ${placeholders(tools, 6)}) AS t (id, team_id, name, description, tags, visibility)`,
      tools.flat(),
    );
    await database.query(
      `INSERT INTO tool_versions (id, tool_id, version, ir, schema_version, status, created_by)
       SELECT v.id::uuid, v.tool_id::uuid, v.version, v.ir::jsonb, '1.0', 'published', 'bench'
       FROM (VALUES ${placeholders(versions, 4)}) AS v (id, tool_id, version, ir)`,
      versions.flat().map((cell) => (typeof cell === 'object' ? JSON.stringify(cell) : cell)),
    );
    await database.query(
      `INSERT INTO releases (tool_id, stable_version, updated_by)
       SELECT id, '1.1.0', 'bench' FROM unnest($1::uuid[]) AS id`,
      [tools.map((tool) => tool[0])],
    );
  }
}

async function timed(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? Number.NaN;
}

async function getJson(base: string, key: string, url: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** One read at one catalog size: its median time and, for whole walks, how many tools it returned. */
interface Row {
  ms: number;
  returned?: number;
}

/** Every row at one catalog size. */
async function measure(base: string, team: Team): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  const sample = async (label: string, url: (index: number) => string): Promise<void> => {
    // Warmups with their own indexes, so the samples stay cache misses too.
    for (let index = SAMPLES; index < SAMPLES + 3; index += 1)
      await getJson(base, team.key, url(index));
    const times: number[] = [];
    for (let index = 0; index < SAMPLES; index += 1)
      times.push(await timed(async () => void (await getJson(base, team.key, url(index)))));
    rows.set(label, { ms: median(times) });
  };
  await sample(
    'export, team, first page of 100',
    (index) => `/v1/exports?format=openai-chat&limit=${100 + index}`,
  );
  await sample(
    'export, one tag (20 tools)',
    (index) => `/v1/exports?format=openai-chat&tags=group-${index % 50}&limit=${100 + index}`,
  );
  const names = (await getJson(base, team.key, '/v1/tools?limit=5'))['items'] as Array<{
    name: string;
  }>;
  await sample(
    'export, 5 names',
    (index) =>
      `/v1/exports?format=openai-chat&names=${names.map((tool) => tool.name).join(',')}&limit=${100 + index}`,
  );
  // A model's few tools: the best matches of a task, and the whole page written for deferred
  // loading beside the same page written plainly (deferring costs what the plain page costs).
  const task = (index: number) =>
    encodeURIComponent(`${VERBS[index % VERBS.length]} ${NOUNS[(index + 5) % NOUNS.length]}`);
  // The tasks repeat every 8 samples: the limit keeps each sample's export a cache miss.
  const taskExport = (index: number) =>
    `/v1/exports?format=openai-chat&q=${task(index)}&limit=${5 + Math.floor(index / 8)}`;
  const found = (await getJson(base, team.key, taskExport(64)))['resolution'] as unknown[];
  if (found.length === 0) throw new Error(`the task export found nothing: ${taskExport(64)}`);
  await sample('export, q (5 best)', taskExport);
  await sample(
    'export, anthropic, first page of 100',
    (index) => `/v1/exports?format=anthropic&limit=${100 + index}`,
  );
  await sample(
    'export, deferred, first page of 100',
    (index) => `/v1/exports?format=anthropic&defer_loading=true&limit=${100 + index}`,
  );
  await sample('list, first page of 20', () => '/v1/tools?limit=20');
  let cursor = '';
  for (let page = 1; page < 20; page += 1)
    cursor = (
      await getJson(base, team.key, `/v1/tools?limit=20${cursor === '' ? '' : `&cursor=${cursor}`}`)
    )['next_cursor'] as string;
  await sample('list, 20th page of 20', () => `/v1/tools?limit=20&cursor=${cursor}`);
  await sample(
    'search, 10 best',
    (index) =>
      `/v1/tools/search?q=${encodeURIComponent(`${VERBS[index % VERBS.length]} ${NOUNS[(index + 3) % NOUNS.length]}`)}&limit=10`,
  );

  // Whole walks: every page of the team's selection, so linear in what they return.
  let exported = 0;
  let next: string | null = null;
  const exportWalk = await timed(async () => {
    do {
      const page = await getJson(
        base,
        team.key,
        `/v1/exports?format=openai-chat&limit=1000${next === null ? '' : `&cursor=${next}`}`,
      );
      exported += (page['resolution'] as unknown[]).length + (page['skipped'] as unknown[]).length;
      next = page['next_cursor'] as string | null;
    } while (next !== null);
  });
  rows.set('export, every page of 1000', { ms: exportWalk, returned: exported });

  const client = new Client({ name: 'bench-catalog', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', base), {
      requestInit: { headers: { authorization: `Bearer ${team.key}` } },
    }),
  );
  try {
    const pages: number[] = [];
    let listed = 0;
    let at: string | undefined;
    do {
      const from = at;
      let result: Awaited<ReturnType<Client['listTools']>> | undefined;
      pages.push(
        await timed(
          async () =>
            void (result = await client.listTools(from === undefined ? {} : { cursor: from })),
        ),
      );
      listed += result?.tools.length ?? 0;
      at = result?.nextCursor;
    } while (at !== undefined);
    rows.set('MCP tools/list, first page of 50', { ms: pages[0] ?? Number.NaN });
    rows.set('MCP tools/list, 10th page of 50', { ms: pages[9] ?? Number.NaN });
    rows.set('MCP tools/list, every page', {
      ms: pages.reduce((sum, time) => sum + time, 0),
      returned: listed,
    });
  } finally {
    await client.close();
  }

  const searching = new Client({ name: 'bench-catalog-search', version: '1.0.0' });
  await searching.connect(
    new StreamableHTTPClientTransport(new URL('/mcp?tools=search', base), {
      requestInit: { headers: { authorization: `Bearer ${team.key}` } },
    }),
  );
  try {
    const search = (index: number) =>
      searching.callTool({
        name: 'toolgate_search_tools',
        // As for the task export, and apart from its pages: a new (query, limit) per sample, so no
        // answer is cached.
        arguments: { query: decodeURIComponent(task(index)), limit: 10 + Math.floor(index / 8) },
      });
    const first = (await search(40)).structuredContent as { tools?: unknown[] } | undefined;
    if ((first?.tools ?? []).length === 0) throw new Error('the MCP search tool found nothing');
    for (let index = SAMPLES; index < SAMPLES + 3; index += 1) await search(index);
    const times: number[] = [];
    for (let index = 0; index < SAMPLES; index += 1)
      times.push(await timed(async () => void (await search(index))));
    rows.set('MCP search tool (10 best)', { ms: median(times) });
  } finally {
    await searching.close();
  }
  return rows;
}

async function main(): Promise<void> {
  const databaseName = `toolgate_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${databaseName}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const adminKey = `bench-admin-${randomUUID()}`;
  const { api, base, stop } = await spawnApi({ root, databaseUrl: url.toString(), adminKey });
  const database = new pg.Client({ connectionString: url.toString() });
  try {
    await waitForReady(base, api);
    await database.connect();
    const teams: Team[] = [];
    for (let index = 0; index < TEAMS; index += 1) {
      const team = (
        await apiCall(base, adminKey, {
          method: 'POST',
          path: '/v1/teams',
          body: { slug: `bench-${index}`, name: `Bench ${index}` },
        })
      ).body as { id: string };
      const key = (
        await apiCall(base, adminKey, {
          method: 'POST',
          path: '/v1/api-keys',
          body: {
            name: `bench-${index}`,
            scopes: ['tools:read', 'tools:write', 'calls:execute'],
            team_id: team.id,
          },
        })
      ).body as { key: string };
      teams.push({ id: team.id, key: key.key });
    }
    const results: Array<Map<string, Row>> = [];
    let seeded = 0;
    for (const size of SIZES) {
      process.stdout.write(`Seeding to ${size} tools...\n`);
      await seed(database, teams, { from: seeded, to: size });
      seeded = size;
      // As autovacuum would by the time anyone searches: flush the GIN pending lists, fresh stats.
      await database.query('VACUUM ANALYZE');
      // Direct inserts do not move the catalog's change signal; a write through the API does, so
      // the API's caches drop what they held.
      await apiCall(base, teams[0]?.key ?? '', {
        method: 'POST',
        path: '/v1/tools',
        body: { name: `bench_marker_${size}` },
      });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      process.stdout.write(`Measuring at ${size} tools (${SAMPLES} samples a row, medians)...\n`);
      results.push(await measure(base, teams[0] as Team));
    }
    const [small, large] = results as [Map<string, Row>, Map<string, Row>];
    const cell = (row: Row | undefined): string =>
      `${row === undefined ? 'n/a' : `${row.ms.toFixed(1)} ms`}${row?.returned === undefined ? '' : ` (${row.returned})`}`;
    process.stdout.write(
      `\n${'read'.padEnd(34)} ${'1,000 tools'.padStart(18)} ${'10,000 tools'.padStart(18)}  ratio\n`,
    );
    for (const [label, row] of small) {
      const big = large.get(label);
      process.stdout.write(
        `${label.padEnd(34)} ${cell(row).padStart(18)} ${cell(big).padStart(18)}  ${((big?.ms ?? Number.NaN) / row.ms).toFixed(2)}x\n`,
      );
    }
    process.stdout.write(
      '\nRows without a count read the same amount at both sizes (goal: ratio near 1); whole walks return\n' +
        'the count in brackets (goal: ratio near the ratio of the counts).\n',
    );
  } finally {
    await database.end().catch(() => undefined);
    await stop();
    if (process.env['BENCH_KEEP_DATABASE'] === undefined)
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    else process.stdout.write(`Kept the database ${databaseName} (BENCH_KEEP_DATABASE).\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
