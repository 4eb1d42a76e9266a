import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import { Prisma, type Release, type Tool, type ToolVersion } from '../generated/prisma/client';
import { ToolException } from '../problem/tool.exception';
import { setStableInTransaction } from '../releases/releases.repository';

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
  toolSummary?: { description: string; tags: string[] } | undefined;
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

export interface SearchHit {
  id: string;
  rank: number;
}

function visibleWhere(visibility: Visibility): Prisma.ToolWhereInput {
  if (visibility.teamId === null) return {};
  return { OR: [{ teamId: visibility.teamId }, { visibility: 'public' }] };
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

  list(filter: ListToolsFilter): Promise<ToolWithRelease[]> {
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
    return this.database.prisma.tool.findMany({
      where: {
        AND: [
          visibleWhere(filter),
          status,
          filter.tags && filter.tags.length > 0 ? { tags: { hasEvery: filter.tags } } : {},
          filter.team === undefined ? {} : { teamId: filter.team },
          filter.ids === undefined ? {} : { id: { in: filter.ids } },
          filter.names === undefined ? {} : { name: { in: filter.names } },
          filter.after === undefined
            ? {}
            : {
                OR: [
                  { name: { gt: filter.after.name } },
                  { name: filter.after.name, id: { gt: filter.after.id } },
                ],
              },
        ],
      },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      take: filter.limit,
      include: { release: true },
    });
  }

  /** Full-text search over name, tags and description, best match first (ts_rank). */
  async search(query: string, visibility: Visibility, limit: number): Promise<SearchHit[]> {
    const teamId = visibility.teamId;
    const rows = await this.database.prisma.$queryRaw<Array<{ id: string; rank: number }>>`
      SELECT id::text AS id, ts_rank(search, query)::float8 AS rank
      FROM tools, websearch_to_tsquery('simple', ${query}) AS query
      WHERE search @@ query
        AND (${teamId}::uuid IS NULL OR team_id = ${teamId}::uuid OR visibility = 'public')
      ORDER BY rank DESC, name ASC, id ASC
      LIMIT ${limit}`;
    return rows.map((row) => ({ id: row.id, rank: Number(row.rank) }));
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

  /** Every version of the given tools, for export resolution. */
  versionsOf(toolIds: string[]): Promise<ToolVersionRow[]> {
    return this.database.prisma.toolVersion.findMany({ where: { toolId: { in: toolIds } } });
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
      toolSummary?: { description: string; tags: string[] } | undefined;
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
