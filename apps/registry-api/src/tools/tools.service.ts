import { randomUUID } from 'node:crypto';
import { Injectable, Inject } from '@nestjs/common';
import { z } from 'zod';
import { ownsTeam, type Principal } from '../auth/principal';
import {
  decodeCursor,
  encodeCursor,
  pageOfRows,
  SearchPositionCursorSchema,
  ToolPositionCursorSchema,
} from '../common/pagination';
import { ExportCache } from '../exports/export-cache';
import { ToolException } from '../problem/tool.exception';
import { resolveTargetTeamId } from '../teams/resolve-target-team';
import { TeamsRepository } from '../teams/teams.repository';
import { isUnavailable } from './deprecation-headers';
import type {
  CreateToolInput,
  ListToolsQuery,
  SearchToolsQuery,
  Tool,
  ToolListItem,
  ToolPage,
} from '@toolgate/contract';
import { toolBadgesOf } from './tool-badges';
import { buildToolSearchQuery, searchQueryKey } from './tool-search-query';
import {
  ToolsRepository,
  type SearchHit,
  type SearchToolsFilter,
  type ToolVersionRow,
  type ToolWithRelease,
} from './tools.repository';

/** A tool a search found, and where it ranks. */
export interface ToolMatch {
  row: ToolWithRelease;
  hit: SearchHit;
}

export function toolToDto(tool: ToolWithRelease): Tool {
  return {
    id: tool.id,
    team_id: tool.teamId,
    name: tool.name,
    description: tool.description,
    tags: tool.tags,
    visibility: tool.visibility,
    release: tool.release
      ? {
          stable_version: tool.release.stableVersion,
          canary_version: tool.release.canaryVersion,
          canary_percent: tool.release.canaryPercent,
        }
      : null,
    created_at: tool.createdAt.toISOString(),
    updated_at: tool.updatedAt.toISOString(),
  };
}

export function brownoutsOf(row: ToolVersionRow): Array<{ start: string; end: string }> {
  const parsed = z.array(z.object({ start: z.string(), end: z.string() })).safeParse(row.brownouts);
  return parsed.success ? parsed.data : [];
}

@Injectable()
export class ToolsService {
  constructor(
    @Inject(ToolsRepository) private readonly tools: ToolsRepository,
    @Inject(TeamsRepository) private readonly teams: TeamsRepository,
    @Inject(ExportCache) private readonly cache: ExportCache,
  ) {}

  async create(principal: Principal, body: CreateToolInput): Promise<Tool> {
    const teamId = await resolveTargetTeamId(this.teams, { principal, teamId: body.team_id });
    const id = body.id ?? randomUUID();
    const tool = await this.tools.create(
      {
        id,
        teamId,
        name: body.name,
        description: body.description,
        tags: body.tags,
        visibility: body.visibility,
      },
      {
        actor: principal.actor,
        teamId,
        action: 'tool.created',
        entityType: 'tool',
        entityId: id,
        data: { name: body.name, tags: body.tags, visibility: body.visibility },
      },
    );
    this.cache.invalidate();
    return toolToDto(tool);
  }

  /** One page of tools; with `q`, of every match in rank order (see searchStatement), by cursor. */
  async list(principal: Principal, query: ListToolsQuery): Promise<ToolPage> {
    if (query.q !== undefined) return this.listMatches(principal, { ...query, q: query.q });
    const after =
      query.cursor === undefined
        ? undefined
        : this.decodeCursor(query.cursor, ToolPositionCursorSchema);
    const rows = await this.tools.list({
      teamId: principal.teamId,
      tags: query.tag,
      team: query.team,
      status: query.status,
      after,
      limit: query.limit + 1,
    });
    const page = pageOfRows(rows, query.limit, (last) => ({ name: last.name, id: last.id }));
    return { items: await this.withBadges(page.rows), next_cursor: page.nextCursor };
  }

  /** The page's tools with their badges: one read of their published versions for the page. */
  private async withBadges(rows: ToolWithRelease[]): Promise<ToolListItem[]> {
    const versions = await this.tools.badgeVersionsOf(rows.map((row) => row.id));
    return rows.map((row) => ({
      ...toolToDto(row),
      badges: toolBadgesOf(
        row.release?.stableVersion,
        versions.filter((version) => version.toolId === row.id),
      ),
    }));
  }

  private async listMatches(
    principal: Principal,
    query: ListToolsQuery & { q: string },
  ): Promise<ToolPage> {
    const page = await this.matchPage(principal, {
      q: query.q,
      cursor: query.cursor,
      limit: query.limit,
      filter: { tags: query.tag, team: query.team, status: query.status },
    });
    return {
      items: await this.withBadges(page.matches.map(({ row }) => row)),
      next_cursor: page.nextCursor,
    };
  }

  /**
   * One page of the tools matching `q`, best first, and how many match in all: the one search
   * behind listings with `q`, `GET /v1/tools/search` and exports with `q`. A cursor belongs to
   * the query (by its words) it was returned for.
   */
  async matchPage(
    principal: Principal,
    query: {
      q: string;
      cursor?: string | undefined;
      limit: number;
      filter?: Pick<SearchToolsFilter, 'tags' | 'team' | 'status'>;
    },
  ): Promise<{ matches: ToolMatch[]; nextCursor: string | null; total: number }> {
    const search = buildToolSearchQuery(query.q);
    const key = search === null ? '' : searchQueryKey(search);
    const after =
      query.cursor === undefined
        ? undefined
        : this.decodeCursor(query.cursor, SearchPositionCursorSchema);
    if (after !== undefined && after.query !== key) {
      throw new ToolException('invalid_request', 'The cursor is for another `q`.', {
        issues: [{ path: '/query/cursor', message: 'belongs to a listing with another q' }],
      });
    }
    if (search === null) return { matches: [], nextCursor: null, total: 0 };
    const hits = await this.tools.search(search, {
      ...query.filter,
      teamId: principal.teamId,
      after: after && { id: after.id, name: after.name, rank: after.rank },
      limit: query.limit + 1,
    });
    const page = hits.slice(0, query.limit);
    const last = page.at(-1);
    return {
      matches: await this.rowsOf(principal, page),
      nextCursor:
        hits.length > query.limit && last
          ? encodeCursor({ query: key, rank: String(last.rank), name: last.name, id: last.id })
          : null,
      total: hits[0]?.total ?? 0,
    };
  }

  async search(
    principal: Principal,
    query: SearchToolsQuery,
  ): Promise<{ items: Array<Tool & { rank: number }> }> {
    const page = await this.matchPage(principal, { q: query.q, limit: query.limit });
    return { items: page.matches.map(({ row, hit }) => ({ ...toolToDto(row), rank: hit.rank })) };
  }

  /** The rows of the hits, in the hits' order (a tool deleted since the search is left out). */
  private async rowsOf(principal: Principal, hits: SearchHit[]): Promise<ToolMatch[]> {
    if (hits.length === 0) return [];
    const rows = await this.tools.list({
      teamId: principal.teamId,
      ids: hits.map((hit) => hit.id),
      limit: hits.length,
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return hits.flatMap((hit) => {
      const row = byId.get(hit.id);
      return row ? [{ row, hit }] : [];
    });
  }

  private decodeCursor<TSchema extends z.ZodType>(
    cursor: string,
    schema: TSchema,
  ): z.output<TSchema> {
    const decoded = decodeCursor(cursor, schema);
    if (decoded === null) {
      throw new ToolException('invalid_request', 'The cursor is not valid.', {
        issues: [{ path: '/query/cursor', message: 'must be a cursor returned by this API' }],
      });
    }
    return decoded;
  }

  async get(principal: Principal, id: string): Promise<Tool> {
    return toolToDto(await this.requireVisible(principal, id));
  }

  /** The tool if the caller may see it; another team's private tool is a 404, never a 403. */
  async requireVisible(principal: Principal, id: string): Promise<ToolWithRelease> {
    const tool = await this.tools.findVisible(id, { teamId: principal.teamId });
    if (!tool) throw new ToolException('not_found', `Tool ${id} was not found.`);
    return tool;
  }

  /** The tool if the caller's team owns it (a public tool of another team can be read, not changed). */
  async requireOwned(principal: Principal, id: string): Promise<ToolWithRelease> {
    const tool = await this.requireVisible(principal, id);
    if (!ownsTeam(principal, tool.teamId)) {
      throw new ToolException(
        'forbidden',
        `Tool ${id} belongs to another team; it can be read, not changed.`,
      );
    }
    return tool;
  }

  /** A version that may be put into rotation: published and not past its sunset. */
  async requireServable(toolId: string, version: string, path: string): Promise<ToolVersionRow> {
    const row = await this.tools.findVersion(toolId, version);
    if (!row) {
      throw new ToolException('version_not_found', `Tool ${toolId} has no version ${version}.`, {
        issues: [{ path, message: 'no such version' }],
      });
    }
    if (row.status !== 'published') {
      throw new ToolException('conflict', `Version ${version} is a draft; publish it first.`, {
        issues: [{ path, message: 'is a draft' }],
      });
    }
    // Brownouts are deliberately ignored: they flush out callers, they do not block operators.
    if (isUnavailable({ ...row, brownouts: [], toolId }, new Date())) {
      throw new ToolException('version_sunset', `Version ${version} is past its sunset.`, {
        issues: [{ path, message: 'is past its sunset' }],
      });
    }
    return row;
  }
}
