import type { PolicyPrincipal } from '@toolgate/engine';
import type { ToolIR } from '@toolgate/toolir';
import type pg from 'pg';

/**
 * Puts a caller's team, a tool and its version (as stable) in the registry tables, as the API
 * would have, so calls of that tool can be recorded. Tool names get the tool id appended, since a
 * team holds one tool per name and tests build many tools of one name.
 */
export async function seedRegistryTool(
  pool: pg.Pool,
  input: { caller: PolicyPrincipal; tool: ToolIR; uniqueName?: boolean },
): Promise<void> {
  const { caller, tool } = input;
  const toolId = tool.id ?? '';
  await pool.query(
    `INSERT INTO teams (id, slug, name) VALUES ($1, $2, $2) ON CONFLICT DO NOTHING`,
    [caller.team, `team-${caller.team}`],
  );
  await pool.query(
    `INSERT INTO tools (id, team_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [toolId, caller.team, input.uniqueName === false ? tool.name : `${tool.name}-${toolId}`],
  );
  await pool.query(
    `INSERT INTO tool_versions (id, tool_id, version, ir, schema_version, created_by)
     VALUES (gen_random_uuid(), $1, $2, $3::jsonb, $4, 'test') ON CONFLICT DO NOTHING`,
    [toolId, tool.version, JSON.stringify(tool), tool.schema_version],
  );
  await pool.query(
    `INSERT INTO releases (tool_id, stable_version, updated_by) VALUES ($1, $2, 'test')
     ON CONFLICT (tool_id) DO UPDATE SET stable_version = excluded.stable_version`,
    [toolId, tool.version],
  );
}
