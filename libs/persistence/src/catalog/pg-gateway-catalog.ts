import { CedarPolicyEngine, allowAllPolicyEngine } from '@toolgate/engine';
import type { PolicyEngine } from '@toolgate/engine';
import type { ToolIR } from '@toolgate/toolir';
import type pg from 'pg';

interface PolicyRow extends Record<string, unknown> {
  id: string;
  scope: string;
  text: string;
  revision: number;
}

interface ToolVersionRow extends Record<string, unknown> {
  team_id: string;
  stable_version: string | null;
  version: string;
  ir: ToolIR;
}

/**
 * What the worker reads from the registry besides calls: a team's effective Cedar policy and the
 * tool versions fallbacks name. The registry's services answer the same questions through Prisma.
 */
export class PgGatewayCatalog {
  // A revision's text never changes, so its compiled engine is reused.
  private readonly engines = new Map<string, CedarPolicyEngine>();

  constructor(private readonly pool: pg.Pool) {}

  /** The team's active policy (else the installation's `global` one); allow-all when neither exists. */
  async policyFor(teamId: string): Promise<PolicyEngine> {
    const { rows } = await this.pool.query<PolicyRow>(
      'SELECT id, scope, text, revision FROM policies WHERE active AND scope = ANY($1::text[])',
      [[teamId, 'global']],
    );
    const row = rows.find((candidate) => candidate.scope === teamId) ?? rows[0];
    if (row === undefined) return allowAllPolicyEngine;
    let engine = this.engines.get(row.id);
    if (engine === undefined) {
      engine = new CedarPolicyEngine(row.text, { revision: String(row.revision) });
      this.engines.set(row.id, engine);
    }
    return engine;
  }

  /** A policy engine that reads the team's effective policy at each decision. */
  policyEngineFor(teamId: string): PolicyEngine {
    return { decide: async (input) => (await this.policyFor(teamId)).decide(input) };
  }

  /**
   * A tool the team may call, by name: its own tool wins over another team's public one; without
   * a version, the stable one.
   */
  async resolveTool(input: {
    teamId: string;
    name: string;
    version: string | undefined;
  }): Promise<ToolIR | undefined> {
    const { rows } = await this.pool.query<ToolVersionRow>(
      `SELECT t.team_id, r.stable_version, v.version, v.ir
         FROM tools t
         JOIN tool_versions v ON v.tool_id = t.id
         LEFT JOIN releases r ON r.tool_id = t.id
        WHERE t.name = $1 AND (t.team_id = $2 OR t.visibility = 'public')`,
      [input.name, input.teamId],
    );
    const own = rows.filter((row) => row.team_id === input.teamId);
    const candidates = own.length > 0 ? own : rows;
    const wanted = input.version ?? candidates[0]?.stable_version ?? undefined;
    return candidates.find((row) => row.version === wanted)?.ir;
  }
}
