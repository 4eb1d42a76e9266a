import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/database/database';
import { PrismaClient } from '../../src/generated/prisma/client';
import { ReleasesRepository } from '../../src/releases/releases.repository';
import { ToolsRepository } from '../../src/tools/tools.repository';
import {
  cloneReleasedTool,
  createTeam,
  createTool,
  publish,
  uniqueName,
  type TestTeam,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The plans of the catalog's page queries on a seeded catalog: each reads about what its page
 * returns (an index scan from the cursor, no sort of every visible tool). The SQL is the one Prisma
 * sends, captured from the connection and explained with the same parameters. Postgres only
 * (POSTGRES_ONLY_FILES): the plans are Postgres's; the queries' results are tested on both.
 */
interface Statement {
  text: string;
  values: unknown[];
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

const CATALOG = 3_000;
let api: TestApp;
let pool: pg.Pool;
let prisma: PrismaClient;
let tools: ToolsRepository;
let releases: ReleasesRepository;
let team: TestTeam;
let statements: Statement[] = [];

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
  const other = await createTeam(api);
  for (const [owner, visibility] of [
    [team, 'private'],
    [other, 'public'],
  ] as const) {
    const template = await createTool(api, owner, { visibility });
    await publish(api, owner, template, '1.0.0');
    await cloneReleasedTool(
      api,
      { team: owner, toolId: template.id, version: '1.0.0' },
      { count: CATALOG, prefix: uniqueName('plan') },
    );
  }
  await api.sql('ANALYZE');
  pool = new pg.Pool({ connectionString: api.databaseUrl, max: 1 });
  // Records what Prisma sends on the pool's connection.
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
      const [first, second] = args;
      if (typeof first === 'object' && first !== null && 'text' in first)
        statements.push({
          text: (first as { text: string }).text,
          values: (first as { values?: unknown[] }).values ?? [],
        });
      else if (typeof first === 'string')
        statements.push({ text: first, values: Array.isArray(second) ? second : [] });
      return query(...args);
    };
  });
  prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const database = { kind: 'postgres', prisma } as unknown as Database;
  tools = new ToolsRepository(database);
  releases = new ReleasesRepository(database);
}, 120_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await api?.close();
});

/**
 * Runs `read` and returns the plans of the statements it sent that read `table`. With `indexOnly`
 * the plan is made with sequential scans off: for a table still small enough that the planner
 * rightly reads it whole, it shows which index serves the query once the table grows.
 */
async function plansOf(
  table: string,
  read: () => Promise<unknown>,
  options: { indexOnly?: boolean } = {},
): Promise<PlanNode[][]> {
  statements = [];
  await read();
  const reads = statements.filter(
    (statement) =>
      /^\s*SELECT/i.test(statement.text) && statement.text.includes(`"public"."${table}"`),
  );
  expect(reads.length).toBeGreaterThan(0);
  const client = new pg.Client({ connectionString: api.databaseUrl });
  await client.connect();
  try {
    if (options.indexOnly === true) await client.query('SET enable_seqscan = off');
    const plans: PlanNode[][] = [];
    for (const statement of reads) {
      const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (FORMAT JSON) ${statement.text}`,
        statement.values,
      );
      plans.push(nodesOf((result.rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan));
    }
    return plans;
  } finally {
    await client.end();
  }
}

/** The indexes a plan reads, and whether it reads `table` whole. */
function accessOf(plan: PlanNode[] | undefined, table: string) {
  const nodes = plan ?? [];
  return {
    indexes: nodes.flatMap((node) =>
      node['Index Name'] === undefined ? [] : [node['Index Name']],
    ),
    bounded: nodes.some((node) => node['Index Cond']?.includes('name >=') === true),
    seqScan: nodes.some(
      (node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === table,
    ),
    sorts: nodes.some((node) => node['Node Type'] === 'Sort'),
  };
}

describe('catalog query plans', () => {
  it('reads a page of tools by (name, id) through the index, first page and deep ones alike', async () => {
    const first = await tools.list({ teamId: team.id, limit: 51 });
    const middle = first.at(-1) as { name: string; id: string };
    // The first page walks the index in order and stops after the page, with no sort.
    const [firstPlan] = await plansOf('tools', () => tools.list({ teamId: team.id, limit: 51 }));
    expect(accessOf(firstPlan, 'tools')).toMatchObject({
      indexes: ['tools_name_id_idx'],
      seqScan: false,
      sorts: false,
    });
    // A later page starts the scan at the cursor (`name >=` bounds it): a deep page reads no more.
    for (const after of [middle, { name: 'plan-zz', id: middle.id }]) {
      const [plan] = await plansOf('tools', () =>
        tools.list({ teamId: team.id, after, limit: 51 }),
      );
      expect(accessOf(plan, 'tools')).toMatchObject({
        indexes: ['tools_name_id_idx'],
        seqScan: false,
        bounded: true,
      });
    }
  });

  it('reads the versions and releases of a page by tool id, not the whole tables', async () => {
    const page = await tools.list({ teamId: team.id, limit: 50 });
    const ids = page.map((tool) => tool.id);
    const [versions] = await plansOf('tool_versions', () => tools.exportableVersionsOf(ids), {
      indexOnly: true,
    });
    expect(accessOf(versions, 'tool_versions')).toMatchObject({
      indexes: ['tool_versions_tool_id_version_key'],
      seqScan: false,
    });
    const [released] = await plansOf('releases', () => releases.releasesOf(ids), {
      indexOnly: true,
    });
    expect(accessOf(released, 'releases')).toMatchObject({
      indexes: ['releases_pkey'],
      seqScan: false,
    });
  });

  it('selects a tag through the tags index', async () => {
    const tag = uniqueName('rare');
    const tagged = await createTool(api, team, { tags: [tag] });
    await publish(api, team, tagged, '1.0.0', tagged.ir.with({ tags: [tag] }));
    await api.sql('ANALYZE tools');
    const [plan] = await plansOf('tools', () =>
      tools.list({ teamId: team.id, tags: [tag], limit: 51 }),
    );
    expect(accessOf(plan, 'tools')).toMatchObject({ indexes: ['tools_tags_idx'], seqScan: false });
  });
});
