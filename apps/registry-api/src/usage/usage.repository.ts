import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';

export interface UsageTool {
  id: string;
  name: string;
  teamId: string;
  hasVersion: boolean;
}

export interface VersionCallerRow {
  teamId: string;
  teamName: string;
  keyId: string | null;
  keyName: string | null;
  actor: string;
  calls: number;
  lastCallAt: Date;
}

// The most callers one answer lists, busiest first; a deprecation needs the heavy callers.
const MAX_CALLERS = 500;

@Injectable()
export class UsageRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async findTool(toolId: string, version: string): Promise<UsageTool | null> {
    const tool = await this.database.prisma.tool.findUnique({
      where: { id: toolId },
      select: {
        id: true,
        name: true,
        teamId: true,
        versions: { where: { version }, select: { id: true } },
      },
    });
    if (tool === null) return null;
    return {
      id: tool.id,
      name: tool.name,
      teamId: tool.teamId,
      hasVersion: tool.versions.length > 0,
    };
  }

  /** Who called one version since `from`: grouped by team, key and actor. */
  async callers(toolId: string, version: string, from: Date): Promise<VersionCallerRow[]> {
    const rows = await this.database.prisma.$queryRaw<
      Array<{
        team_id: string;
        team_name: string;
        key_id: string | null;
        key_name: string | null;
        actor: string;
        calls: number;
        last_call_at: Date;
      }>
    >`
      SELECT c.team_id::text AS team_id, t.name AS team_name,
             c.key_id::text AS key_id, k.name AS key_name, c.actor,
             count(*)::int AS calls, max(c.created_at) AS last_call_at
        FROM calls c
        JOIN teams t ON t.id = c.team_id
        LEFT JOIN api_keys k ON k.id = c.key_id
       WHERE c.tool_id = ${toolId}::uuid
         AND c.tool_version = ${version}
         AND c.created_at >= ${from}
       GROUP BY c.team_id, t.name, c.key_id, k.name, c.actor
       ORDER BY calls DESC, last_call_at DESC
       LIMIT ${MAX_CALLERS}`;
    return rows.map((row) => ({
      teamId: row.team_id,
      teamName: row.team_name,
      keyId: row.key_id,
      keyName: row.key_name,
      actor: row.actor,
      calls: Number(row.calls),
      lastCallAt: row.last_call_at,
    }));
  }
}
