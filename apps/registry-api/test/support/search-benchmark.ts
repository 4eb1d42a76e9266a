import {
  SEARCH_CATALOG,
  SEARCH_QUERIES,
  type CatalogTool,
  type LabelledQuery,
} from '../integration/__fixtures__/search-catalog';

/** One request to the API, answered with its status and parsed body (the test app's `request`). */
export type SearchBenchmarkRequest = (options: {
  method?: 'GET' | 'POST';
  url: string;
  key: string;
  body?: unknown;
}) => Promise<{ status: number; body: unknown }>;

/** How the labelled queries fared: recall@3, MRR over the top 10, and the queries that missed. */
export interface SearchMeasurement {
  queries: number;
  recallAt3: number;
  /** Mean reciprocal rank of the expected tool in the top 10 (0 for a query that misses it). */
  mrr: number;
  /** Queries whose expected tool is not in the top 3, with where it was (null: not in the top 10). */
  misses: Array<{ query: string; expected: string; position: number | null; top: string[] }>;
  /** Milliseconds per search request, as measured around each one. */
  latency: { p50: number; max: number };
}

const DEPTH = 10;

async function expectOk(
  response: Promise<{ status: number; body: unknown }>,
  what: string,
): Promise<Record<string, unknown>> {
  const { status, body } = await response;
  if (status < 200 || status > 299) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body as Record<string, unknown>;
}

function irOf(id: string, entry: CatalogTool): Record<string, unknown> {
  return {
    schema_version: '1.0',
    id,
    name: entry.name,
    version: '1.0.0',
    description: entry.description,
    parameters: entry.parameters,
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5_000 },
    tags: entry.tags,
  };
}

/**
 * Registers the catalog in a new team through the API, each tool with a published first version
 * (so search sees what a publish writes), and returns a key of that team.
 */
export async function seedSearchCatalog(
  request: SearchBenchmarkRequest,
  options: { adminKey: string; slug: string; catalog?: readonly CatalogTool[] },
): Promise<string> {
  const team = await expectOk(
    request({
      method: 'POST',
      url: '/v1/teams',
      key: options.adminKey,
      body: { slug: options.slug, name: options.slug },
    }),
    'create team',
  );
  const created = await expectOk(
    request({
      method: 'POST',
      url: '/v1/api-keys',
      key: options.adminKey,
      body: { name: options.slug, scopes: ['tools:read', 'tools:write'], team_id: team['id'] },
    }),
    'create key',
  );
  const key = String(created['key']);
  for (const entry of options.catalog ?? SEARCH_CATALOG) {
    const registered = await expectOk(
      request({
        method: 'POST',
        url: '/v1/tools',
        key,
        body: { name: entry.name, description: entry.description, tags: entry.tags },
      }),
      `create ${entry.name}`,
    );
    await expectOk(
      request({
        method: 'POST',
        url: `/v1/tools/${String(registered['id'])}/versions`,
        key,
        body: { ir: irOf(String(registered['id']), entry) },
      }),
      `publish ${entry.name}`,
    );
  }
  return key;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** Runs every labelled query through `GET /v1/tools/search` and scores the answers. */
export async function measureSearch(
  request: SearchBenchmarkRequest,
  key: string,
  queries: readonly LabelledQuery[] = SEARCH_QUERIES,
): Promise<SearchMeasurement> {
  let hits = 0;
  let reciprocal = 0;
  const misses: SearchMeasurement['misses'] = [];
  const timings: number[] = [];
  for (const labelled of queries) {
    const started = performance.now();
    const body = await expectOk(
      request({
        url: `/v1/tools/search?q=${encodeURIComponent(labelled.query)}&limit=${DEPTH}`,
        key,
      }),
      `search "${labelled.query}"`,
    );
    timings.push(performance.now() - started);
    const names = (body['items'] as Array<{ name: string }>).map((item) => item.name);
    const index = names.indexOf(labelled.expected);
    if (index >= 0) reciprocal += 1 / (index + 1);
    if (index >= 0 && index < 3) hits += 1;
    else {
      misses.push({
        query: labelled.query,
        expected: labelled.expected,
        position: index >= 0 ? index + 1 : null,
        top: names.slice(0, 3),
      });
    }
  }
  timings.sort((left, right) => left - right);
  return {
    queries: queries.length,
    recallAt3: hits / queries.length,
    mrr: reciprocal / queries.length,
    misses,
    latency: { p50: percentile(timings, 0.5), max: timings.at(-1) ?? Number.NaN },
  };
}

/** The measurement as the bench prints it. */
export function formatSearchMeasurement(measurement: SearchMeasurement): string {
  const lines = [
    `queries:   ${measurement.queries}`,
    `recall@3:  ${measurement.recallAt3.toFixed(3)}`,
    `MRR@${DEPTH}:    ${measurement.mrr.toFixed(3)}`,
    `latency:   p50 ${measurement.latency.p50.toFixed(1)} ms, max ${measurement.latency.max.toFixed(1)} ms per request`,
  ];
  if (measurement.misses.length > 0) {
    lines.push(`missed (expected tool not in the top 3): ${measurement.misses.length}`);
    for (const miss of measurement.misses) {
      lines.push(
        `  "${miss.query}" -> ${miss.expected} at ${miss.position ?? `>${DEPTH}`}; top: ${miss.top.join(', ') || '(nothing)'}`,
      );
    }
  }
  return lines.join('\n');
}
