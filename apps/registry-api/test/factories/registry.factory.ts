import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Scope } from '../../src/auth/principal';
import type { TestApp } from '../support/test-app';
import { ToolIRFactory } from './tool-ir.factory';

export interface TestTeam {
  id: string;
  slug: string;
  /** A key with every scope of the team. */
  key: string;
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export async function createTeam(api: TestApp): Promise<TestTeam> {
  const slug = uniqueName('team');
  const team = await api.request({ method: 'POST', url: '/v1/teams', body: { slug, name: slug } });
  expect(team.status, team.text).toBe(201);
  const key = await createKey(api, { teamId: team.body.id, scopes: ['admin'] });
  return { id: team.body.id, slug, key };
}

export async function createKey(
  api: TestApp,
  options: { teamId: string; scopes: Scope[] },
): Promise<string> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/api-keys',
    body: { name: uniqueName('key'), scopes: options.scopes, team_id: options.teamId },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.key as string;
}

export interface TestTool {
  id: string;
  name: string;
  ir: ToolIRFactory;
}

export async function createTool(
  api: TestApp,
  team: TestTeam,
  fields: {
    name?: string;
    tags?: string[];
    visibility?: 'private' | 'public';
    description?: string;
  } = {},
): Promise<TestTool> {
  const name = fields.name ?? uniqueName('tool');
  const response = await api.request({
    method: 'POST',
    url: '/v1/tools',
    key: team.key,
    body: {
      name,
      tags: fields.tags ?? [],
      visibility: fields.visibility ?? 'private',
      description: fields.description ?? '',
    },
  });
  expect(response.status, response.text).toBe(201);
  const id = response.body.id as string;
  return {
    id,
    name,
    ir: ToolIRFactory.from({ id, name, ...(fields.tags ? { tags: fields.tags } : {}) }),
  };
}

export async function publish(
  api: TestApp,
  team: TestTeam,
  tool: TestTool,
  version: string,
  ir = tool.ir,
  // A tool's first published version becomes stable unless the publish says `release: 'none'`.
  options: { release?: 'stable' | 'none' } = {},
): Promise<void> {
  const response = await api.request({
    method: 'POST',
    url: `/v1/tools/${tool.id}/versions`,
    key: team.key,
    body: { ir: ir.version(version).build(), ...options },
  });
  expect(response.status, response.text).toBe(201);
}

export async function setStable(
  api: TestApp,
  team: TestTeam,
  tool: TestTool,
  version: string,
): Promise<void> {
  const response = await api.request({
    method: 'PUT',
    url: `/v1/tools/${tool.id}/release/stable`,
    key: team.key,
    body: { version },
  });
  expect(response.status, response.text).toBe(200);
}

/**
 * Copies a released tool `count` times in SQL (names `${prefix}-0001`..., one published version
 * made stable, the template's IR under each copy's id and name): catalogs of hundreds of tools in
 * a fraction of a second, where the API takes two requests per tool.
 */
export async function cloneReleasedTool(
  api: TestApp,
  template: { team: TestTeam; toolId: string; version: string },
  copies: { count: number; prefix: string },
): Promise<void> {
  await api.sql(
    `WITH copies AS (
       INSERT INTO tools (id, team_id, name, description, tags, visibility)
       SELECT gen_random_uuid(), $1::uuid, $2 || '-' || lpad(n::text, 4, '0'), t.description, t.tags, t.visibility
       FROM generate_series(1, $3::int) AS n, tools t WHERE t.id = $4::uuid
       RETURNING id, name
     ), versions AS (
       INSERT INTO tool_versions (id, tool_id, version, ir, schema_version, status, created_by)
       SELECT gen_random_uuid(), c.id, v.version,
              jsonb_set(jsonb_set(v.ir, '{id}', to_jsonb(c.id::text)), '{name}', to_jsonb(c.name)),
              v.schema_version, 'published', 'test'
       FROM copies c, tool_versions v WHERE v.tool_id = $4::uuid AND v.version = $5
     )
     INSERT INTO releases (tool_id, stable_version, updated_by)
     SELECT id, $5, 'test' FROM copies`,
    [template.team.id, copies.prefix, copies.count, template.toolId, template.version],
  );
}
