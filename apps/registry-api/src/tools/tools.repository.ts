import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import { Prisma, type Release, type Tool, type ToolVersion } from '../generated/prisma/client';
import { ToolException } from '../problem/tool.exception';
import { setStableInTransaction } from '../releases/releases.repository';
import type { BadgeVersionRow } from './tool-badges';
import type { ToolSearchQuery } from './tool-search-query';

export type ToolRow = Tool;
export type ToolVersionRow = ToolVersion;
export type ToolWithRelease = Tool & { release: Release | null };
export type ToolVisibilityValue = Tool['visibility'];
export type VersionStatusValue = ToolVersion['status'];

/** Which tools a caller may see: its own team's, and every team's public ones. */
export interface Visibility {
  teamId: string | null;
}

export interface ListToolsFilter extends Visibility {
  tags?: string[] | undefined;
  team?: string | undefined;
  status?: 'draft' | 'published' | 'deprecated' | undefined;
  /** Restrict to these ids (the result of a text search). */
  ids?: string[] | undefined;
  names?: string[] | undefined;
  after?: { name: string; id: string } | undefined;
  limit: number;
}

export interface CreateToolRow {
  id: string;
  teamId: string;
  name: string;
  description: string;
  tags: string[];
  visibility: ToolVisibilityValue;
}

export interface CreateVersionRow {
  toolId: string;
  version: string;
  ir: Record<string, unknown>;
  schemaVersion: string;
  status: VersionStatusValue;
  createdBy: string;
  /** Set when this version becomes the tool's newest: search reads the tool row. */
  toolSummary?: ToolSummary | undefined;
}

/** What the tool row copies from its newest published version (toolSummaryOf builds it). */
export interface ToolSummary {
  description: string;
  tags: string[];
  /** The parameter schema's property names, space-separated, for search. */
  parameterNames: string;
  /** Their descriptions, for search. */
  parameterDescriptions: string;
}

/**
 * Whether a publish also makes its version stable, in the same transaction: `always` (asked for),
 * or `if_first` (the default for a tool's first published version, decided again under the tool's
 * row lock so two concurrent "first" publishes cannot both win).
 */
export interface PublishRelease {
  when: 'always' | 'if_first';
  /** The audit event of the release change; its data (before/after) is filled in here. */
  audit: Omit<AuditEntry, 'data'>;
}

export interface CreatedVersion {
  version: ToolVersionRow;
  /** The release after the publish (null: the tool has none). */
  release: Release | null;
}

export interface DeprecateVersionRow {
  toolId: string;
  version: string;
  sunsetAt: Date;
  successorVersion: string | null;
  brownouts: Array<{ start: string; end: string }>;
}

/** Where a match stands in a text search: higher `rank` is better; pages follow (rank desc, name, id). */
export interface SearchPosition {
  id: string;
  name: string;
  rank: number;
}

/** One match of a text search. */
export interface SearchHit extends SearchPosition {
  /** Matches of the whole search, on every page (the ranking counts them all anyway). */
  total: number;
}

/** Which matches a search returns: the list's filters, and the page after a hit in rank order. */
export interface SearchToolsFilter extends Visibility {
  tags?: string[] | undefined;
  team?: string | undefined;
  status?: ListToolsFilter['status'];
  /** The last hit of the previous page. */
  after?: SearchPosition | undefined;
  limit: number;
}

// ts_rank_cd weights of {D, C, B, A}: parameter descriptions, description, tags and parameter
// names, name (the migration 20261204000000_tool_search sets which field has which weight).
const FIELD_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';

/**
 * The statement behind ToolsRepository.search, in the 'english' configuration the index uses.
 * Candidates come from two index scans: tools whose `search` holds any query word or a word it
 * begins (GIN), and tools whose name holds a word spelled like a query word of three or more
 * letters (trigram GIN, strict_word_similarity at pg_trgm's threshold, 0.5 by default: "wether"
 * finds weather.*). Each is ranked by coverage, the share of the query's words it matches (1 for
 * a word, 0.8 for a word it only begins, the similarity for a name word like it; words the
 * configuration ignores, such as "for" or "the", count only when the query has nothing else),
 * plus half its ts_rank_cd with the field weights (normalized into [0, 1)): coverage leads, the
 * fields a word is found in order equal coverage. The rank is rounded to 6 decimals and pages
 * continue after (rank, name, id), a keyset that stays put because a tool's rank depends on the
 * tool and the query only, never on the rest of the catalog.
 */
export function searchStatement(query: ToolSearchQuery, filter: SearchToolsFilter): Prisma.Sql {
  const teamId = filter.teamId;
  // The same selections as listWhere's status, tags and team, in SQL.
  const status =
    filter.status === undefined
      ? Prisma.empty
      : filter.status === 'deprecated'
        ? Prisma.sql`AND EXISTS (SELECT 1 FROM tool_versions v WHERE v.tool_id = t.id
            AND v.deprecated_at IS NOT NULL)`
        : filter.status === 'published'
          ? Prisma.sql`AND EXISTS (SELECT 1 FROM tool_versions v WHERE v.tool_id = t.id
              AND v.status = 'published' AND (v.sunset_at IS NULL OR v.sunset_at > now()))`
          : Prisma.sql`AND EXISTS (SELECT 1 FROM tool_versions v WHERE v.tool_id = t.id
              AND v.status = 'draft')`;
  const tags =
    filter.tags && filter.tags.length > 0
      ? Prisma.sql`AND t.tags @> ${filter.tags}::text[]`
      : Prisma.empty;
  const team =
    filter.team === undefined ? Prisma.empty : Prisma.sql`AND t.team_id = ${filter.team}::uuid`;
  const after =
    filter.after === undefined
      ? Prisma.empty
      : Prisma.sql`WHERE (rank < ${String(filter.after.rank)}::float8
          OR (rank = ${String(filter.after.rank)}::float8
            AND (name, id) > (${filter.after.name}, ${filter.after.id}::uuid)))`;
  return Prisma.sql`
    WITH term AS (
      SELECT word, plainto_tsquery('english', word) AS exact, to_tsquery('english', prefix) AS prefix,
        word = ANY (${query.nameTerms}::text[]) AS fuzzy
      FROM unnest(${query.terms}::text[], ${query.prefixes}::text[]) AS input (word, prefix)
    ),
    counted AS (
      SELECT word, exact, prefix, fuzzy FROM term
      WHERE numnode(exact) > 0 OR NOT EXISTS (SELECT 1 FROM term WHERE numnode(exact) > 0)
    ),
    -- Two scans, each over its own index; whole rows, so nothing joins back to the table.
    candidate AS (
      SELECT t.id, t.name, t.search, t.team_id, t.visibility, t.tags FROM tools t
      WHERE t.search @@ to_tsquery('english', ${query.anyTerm})
      UNION ALL
      SELECT t.id, t.name, t.search, t.team_id, t.visibility, t.tags
      FROM term JOIN tools t ON term.word <<% t.name
      WHERE term.fuzzy
    ),
    distinct_candidate AS (
      SELECT DISTINCT ON (id) * FROM candidate ORDER BY id
    ),
    ranked AS (
      SELECT t.id, t.name, score.coverage, round((score.coverage
        + 0.5 * ts_rank_cd(${FIELD_WEIGHTS}::float4[], t.search,
            to_tsquery('english', ${query.anyTerm}), 32)
      )::numeric, 6)::float8 AS rank
      FROM distinct_candidate t
      CROSS JOIN LATERAL (
        SELECT sum(greatest(
            CASE WHEN t.search @@ c.exact THEN 1.0::float8
              WHEN t.search @@ c.prefix THEN 0.8::float8 ELSE 0.0::float8 END,
            CASE WHEN c.fuzzy AND c.word <<% t.name
              THEN strict_word_similarity(c.word, t.name)::float8
              ELSE 0.0::float8 END)) / count(*) AS coverage
        FROM counted c
      ) AS score
      WHERE (${teamId}::uuid IS NULL OR t.team_id = ${teamId}::uuid OR t.visibility = 'public')
        ${tags} ${team} ${status}
    ),
    matched AS (
      -- a name word like a stop word ("the", "for") alone is no match
      SELECT id, name, rank, count(*) OVER ()::int AS total FROM ranked WHERE coverage > 0
    )
    SELECT id::text AS id, name, rank, total FROM matched
    ${after}
    ORDER BY rank DESC, matched.name ASC, matched.id ASC
    LIMIT ${filter.limit}`;
}

function visibleWhere(visibility: Visibility): Prisma.ToolWhereInput {
  if (visibility.teamId === null) return {};
  return { OR: [{ teamId: visibility.teamId }, { visibility: 'public' }] };
}

/** The tools a list filter selects, before its page (`after`, `limit`) is cut. */
function listWhere(filter: Omit<ListToolsFilter, 'after' | 'limit'>): Prisma.ToolWhereInput {
  const now = new Date();
  const status: Prisma.ToolWhereInput =
    filter.status === undefined
      ? {}
      : filter.status === 'deprecated'
        ? { versions: { some: { deprecatedAt: { not: null } } } }
        : filter.status === 'published'
          ? {
              versions: {
                some: {
                  status: 'published',
                  OR: [{ sunsetAt: null }, { sunsetAt: { gt: now } }],
                },
              },
            }
          : { versions: { some: { status: 'draft' } } };
  return {
    AND: [
      visibleWhere(filter),
      status,
      filter.tags && filter.tags.length > 0 ? { tags: { hasEvery: filter.tags } } : {},
      filter.team === undefined ? {} : { teamId: filter.team },
      filter.ids === undefined ? {} : { id: { in: filter.ids } },
      filter.names === undefined ? {} : { name: { in: filter.names } },
    ],
  };
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/** Whether `created` is its tool's only published version and the tool has no stable version yet. */
async function isFirstPublished(
  tx: Prisma.TransactionClient,
  created: ToolVersionRow,
): Promise<boolean> {
  if (created.status !== 'published') return false;
  const others = await tx.toolVersion.count({
    where: { toolId: created.toolId, status: 'published', id: { not: created.id } },
  });
  if (others > 0) return false;
  const current = await tx.release.findUnique({ where: { toolId: created.toolId } });
  return current?.stableVersion == null;
}

function jsonObject(value: Record<string, unknown>): Prisma.InputJsonObject {
  return value as Prisma.InputJsonObject;
}

@Injectable()
export class ToolsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async create(row: CreateToolRow, audit: AuditEntry): Promise<ToolWithRelease> {
    try {
      return await inTransaction(this.database.prisma, async (tx) => {
        const tool = await tx.tool.create({ data: row, include: { release: true } });
        await appendAuditEvent(tx, audit);
        return tool;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw await this.duplicateToolException(row);
      throw error;
    }
  }

  /** The 409 for a taken id or name, quoting the tool that holds it (not the id the request tried). */
  private async duplicateToolException(row: CreateToolRow): Promise<ToolException> {
    const byId = await this.database.prisma.tool.findUnique({
      where: { id: row.id },
      select: { id: true, name: true, teamId: true },
    });
    const existing =
      byId ??
      (await this.database.prisma.tool.findUnique({
        where: { teamId_name: { teamId: row.teamId, name: row.name } },
        select: { id: true, name: true, teamId: true },
      }));
    if (existing === null) {
      // Gone again between the failed insert and this read: still a conflict, just nothing to quote.
      return new ToolException(
        'conflict',
        `A tool named "${row.name}" already exists; retry to see which.`,
        { issues: [{ path: '/body/name', message: 'is already taken in this team' }] },
      );
    }
    // An id is global: another team's tool is quoted by id only, so its name does not leak.
    const sameTeam = existing.teamId === row.teamId;
    const quoted = sameTeam ? { id: existing.id, name: existing.name } : { id: existing.id };
    return byId
      ? new ToolException('conflict', `A tool with id ${existing.id} already exists.`, {
          issues: [{ path: '/body/id', message: 'is already taken' }],
          extensions: { existing_tool: quoted },
        })
      : new ToolException(
          'conflict',
          `A tool named "${existing.name}" already exists in this team: ${existing.id}.`,
          {
            issues: [{ path: '/body/name', message: `is already taken by tool ${existing.id}` }],
            extensions: { existing_tool: quoted },
          },
        );
  }

  findVisible(id: string, visibility: Visibility): Promise<ToolWithRelease | null> {
    return this.database.prisma.tool.findFirst({
      where: { id, ...visibleWhere(visibility) },
      include: { release: true },
    });
  }

  /** One page of tools by (name, id): the order every tool list and export pages in. */
  list(filter: ListToolsFilter): Promise<ToolWithRelease[]> {
    return this.database.prisma.tool.findMany({
      where: {
        AND: [
          listWhere(filter),
          // (name, id) > after, written so that `name >= after.name` bounds the index scan.
          filter.after === undefined
            ? {}
            : {
                name: { gte: filter.after.name },
                OR: [{ name: { gt: filter.after.name } }, { id: { gt: filter.after.id } }],
              },
        ],
      },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      take: filter.limit,
      include: { release: true },
    });
  }

  /** Text search, best match first; see searchStatement for the ranking. */
  async search(query: ToolSearchQuery, filter: SearchToolsFilter): Promise<SearchHit[]> {
    const rows = await this.database.prisma.$queryRaw<SearchHit[]>(searchStatement(query, filter));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      rank: Number(row.rank),
      total: Number(row.total),
    }));
  }

  /** The published versions of a page's tools, reduced to what their badges need (not the IR). */
  async badgeVersionsOf(toolIds: string[]): Promise<BadgeVersionRow[]> {
    if (toolIds.length === 0) return [];
    const rows = await this.database.prisma.$queryRaw<
      Array<{
        tool_id: string;
        version: string;
        destructive: boolean | null;
        source_kind: string | null;
        deprecated_at: Date | null;
        sunset_at: Date | null;
      }>
    >(Prisma.sql`
      SELECT tool_id, version, deprecated_at, sunset_at,
             (ir -> 'behavior' ->> 'destructive') = 'true' AS destructive,
             ir -> 'protocol_meta' -> 'toolgate' -> 'source' ->> 'kind' AS source_kind
        FROM tool_versions
       WHERE tool_id = ANY(${toolIds}::uuid[]) AND status = 'published'`);
    return rows.map((row) => ({
      toolId: row.tool_id,
      version: row.version,
      destructive: row.destructive === true,
      sourceKind: row.source_kind,
      deprecatedAt: row.deprecated_at,
      sunsetAt: row.sunset_at,
    }));
  }

  listVersions(toolId: string): Promise<ToolVersionRow[]> {
    return this.database.prisma.toolVersion.findMany({
      where: { toolId },
      orderBy: { createdAt: 'asc' },
    });
  }

  findVersion(toolId: string, version: string): Promise<ToolVersionRow | null> {
    return this.database.prisma.toolVersion.findUnique({
      where: { toolId_version: { toolId, version } },
    });
  }

  /** How many tools the filter selects, over every page (`after` and `limit` are not read). */
  count(filter: Omit<ListToolsFilter, 'after' | 'limit'>): Promise<number> {
    return this.database.prisma.tool.count({ where: listWhere(filter) });
  }

  /** The published versions of the given tools, for export resolution. */
  /** Published versions and drafts: a draft is exported only to an exact pin (a preview). */
  exportableVersionsOf(toolIds: string[]): Promise<ToolVersionRow[]> {
    return this.database.prisma.toolVersion.findMany({
      where: { toolId: { in: toolIds }, status: { in: ['published', 'draft'] } },
    });
  }

  /** The version, its audit event and (when asked) the release change commit together or not at all. */
  async createVersion(
    row: CreateVersionRow,
    audit: AuditEntry,
    release?: PublishRelease,
  ): Promise<CreatedVersion> {
    const { toolSummary, ...version } = row;
    try {
      return await inTransaction(this.database.prisma, async (tx) => {
        if (release) {
          // Serializes publishes of this tool that may release, so "first" is decided once.
          await tx.$queryRaw`SELECT id FROM tools WHERE id = ${row.toolId}::uuid FOR UPDATE`;
        }
        const created = await tx.toolVersion.create({
          data: { ...version, ir: jsonObject(version.ir) },
        });
        if (toolSummary) {
          await tx.tool.update({
            where: { id: row.toolId },
            data: { ...toolSummary, updatedAt: new Date() },
          });
        }
        await appendAuditEvent(tx, audit);
        if (release && (release.when === 'always' || (await isFirstPublished(tx, created)))) {
          const change = await setStableInTransaction(tx, {
            toolId: row.toolId,
            version: row.version,
            updatedBy: row.createdBy,
          });
          await appendAuditEvent(tx, {
            ...release.audit,
            data: { before: change.before, after: change.after },
          });
          return { version: created, release: change.row };
        }
        return {
          version: created,
          release: await tx.release.findUnique({ where: { toolId: row.toolId } }),
        };
      });
    } catch (error) {
      // The unique index (tool_id, version) arbitrates concurrent publishes: exactly one wins.
      if (isUniqueViolation(error)) {
        throw new ToolException('conflict', `Version ${row.version} of this tool already exists.`, {
          issues: [{ path: '/body/version', message: 'already exists; versions are immutable' }],
        });
      }
      throw error;
    }
  }

  /** Draft to published, once: null when the version is not (or no longer) a draft. */
  async publishDraft(
    target: {
      toolId: string;
      version: string;
      toolSummary?: ToolSummary | undefined;
    },
    audit: AuditEntry,
  ): Promise<ToolVersionRow | null> {
    return inTransaction(this.database.prisma, async (tx) => {
      const { count } = await tx.toolVersion.updateMany({
        where: { toolId: target.toolId, version: target.version, status: 'draft' },
        data: { status: 'published' },
      });
      if (count === 0) return null;
      if (target.toolSummary) {
        await tx.tool.update({
          where: { id: target.toolId },
          data: { ...target.toolSummary, updatedAt: new Date() },
        });
      }
      await appendAuditEvent(tx, audit);
      return tx.toolVersion.findUnique({
        where: { toolId_version: { toolId: target.toolId, version: target.version } },
      });
    });
  }

  async deprecateVersion(row: DeprecateVersionRow, audit: AuditEntry): Promise<ToolVersionRow> {
    return inTransaction(this.database.prisma, async (tx) => {
      const updated = await tx.toolVersion.update({
        where: { toolId_version: { toolId: row.toolId, version: row.version } },
        data: {
          deprecatedAt: new Date(),
          sunsetAt: row.sunsetAt,
          successorVersion: row.successorVersion,
          brownouts: row.brownouts,
        },
      });
      await appendAuditEvent(tx, audit);
      return updated;
    });
  }
}
