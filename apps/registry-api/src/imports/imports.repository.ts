import { Inject, Injectable } from '@nestjs/common';
import { isRecord } from '@toolgate/toolir';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import {
  Prisma,
  type McpServer,
  type McpServerTool,
  type Release,
  type Tool,
  type ToolVersion,
} from '../generated/prisma/client';
import { ToolException } from '../problem/tool.exception';
import { searchFieldsOf } from '../tools/tool-summary';

export type McpServerRow = McpServer;
export type McpServerToolRow = McpServerTool;
export type ImportedToolRow = Tool & { versions: ToolVersion[]; release: Release | null };

/** One tool version an import writes (and the tool row first, when the tool is new). */
export interface ToolVersionWrite {
  newTool?: { teamId: string; name: string; description: string; tags: string[] } | undefined;
  /** The version exists as a draft with this very IR: publish it instead of creating it. */
  draftExists?: boolean | undefined;
  toolId: string;
  version: string;
  ir: Record<string, unknown>;
  status: 'draft' | 'published';
  createdBy: string;
}

/** A registered upstream server, created or brought up to date by a sync. */
export interface McpServerWrite {
  create?: Omit<McpServer, 'createdAt' | 'lastSyncedAt'> | undefined;
  id: string;
  syncedAt: Date;
  /** The mapping of every upstream tool seen or gone; `removed` sets or clears removed_at. */
  tools: Array<{ id: string; upstreamName: string; toolId: string; removed: boolean }>;
}

/** Everything one import or sync writes; it commits whole or not at all. */
export interface ImportWrites {
  versions: ToolVersionWrite[];
  /** Tools whose versions all get deprecated (their upstream tool is gone). */
  deprecations: Array<{ toolId: string; sunsetAt: Date }>;
  server?: McpServerWrite | undefined;
  /** In order; each change above has its event here. */
  audit: AuditEntry[];
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

@Injectable()
export class ImportsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** The team's tools with these names, with every version and the release. */
  findTools(teamId: string, names: string[]): Promise<ImportedToolRow[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.database.prisma.tool.findMany({
      where: { teamId, name: { in: names } },
      include: { versions: true, release: true },
    });
  }

  findToolsById(ids: string[]): Promise<ImportedToolRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.prisma.tool.findMany({
      where: { id: { in: ids } },
      include: { versions: true, release: true },
    });
  }

  findServer(id: string): Promise<(McpServerRow & { tools: McpServerToolRow[] }) | null> {
    return this.database.prisma.mcpServer.findUnique({ where: { id }, include: { tools: true } });
  }

  findServerByName(teamId: string, name: string): Promise<McpServerRow | null> {
    return this.database.prisma.mcpServer.findUnique({ where: { teamId_name: { teamId, name } } });
  }

  listServers(teamId: string | null): Promise<Array<McpServerRow & { tools: McpServerToolRow[] }>> {
    return this.database.prisma.mcpServer.findMany({
      where: teamId === null ? {} : { teamId },
      include: { tools: true },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
  }

  async apply(writes: ImportWrites): Promise<void> {
    try {
      await inTransaction(this.database.prisma, async (tx) => {
        if (writes.server?.create) await tx.mcpServer.create({ data: writes.server.create });
        for (const write of writes.versions) await this.writeVersion(tx, write);
        const now = new Date();
        for (const deprecation of writes.deprecations) {
          await tx.toolVersion.updateMany({
            where: { toolId: deprecation.toolId, deprecatedAt: null },
            data: { deprecatedAt: now, sunsetAt: deprecation.sunsetAt },
          });
        }
        if (writes.server) {
          const server = writes.server;
          await tx.mcpServer.update({
            where: { id: server.id },
            data: { lastSyncedAt: server.syncedAt },
          });
          for (const tool of server.tools) {
            const removedAt = tool.removed ? now : null;
            await tx.mcpServerTool.upsert({
              where: {
                serverId_upstreamName: { serverId: server.id, upstreamName: tool.upstreamName },
              },
              create: {
                id: tool.id,
                serverId: server.id,
                upstreamName: tool.upstreamName,
                toolId: tool.toolId,
                removedAt,
              },
              update: { toolId: tool.toolId, removedAt },
            });
          }
        }
        for (const entry of writes.audit) await appendAuditEvent(tx, entry);
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ToolException(
          'conflict',
          'Another change to these tools or servers landed while the import ran; retry it.',
        );
      }
      throw error;
    }
  }

  private async writeVersion(tx: Prisma.TransactionClient, write: ToolVersionWrite): Promise<void> {
    const published = write.status === 'published';
    const description = write.ir['description'];
    const parameters = write.ir['parameters'];
    // What the tool row shows and search indexes, as a publish through the API sets it.
    const summary = {
      description: typeof description === 'string' ? description : '',
      tags: tagsOf(write.ir),
      ...searchFieldsOf(isRecord(parameters) ? parameters : {}),
    };
    if (write.newTool) {
      await tx.tool.create({ data: { id: write.toolId, ...write.newTool, visibility: 'private' } });
    }
    if (write.draftExists) {
      await tx.toolVersion.update({
        where: { toolId_version: { toolId: write.toolId, version: write.version } },
        data: { status: 'published' },
      });
    } else {
      await tx.toolVersion.create({
        data: {
          toolId: write.toolId,
          version: write.version,
          ir: write.ir as Prisma.InputJsonObject,
          schemaVersion: String(write.ir['schema_version']),
          status: write.status,
          createdBy: write.createdBy,
        },
      });
    }
    if (!published) return;
    await tx.tool.update({
      where: { id: write.toolId },
      data: { ...summary, updatedAt: new Date() },
    });
    const current = await tx.release.findUnique({ where: { toolId: write.toolId } });
    const next = {
      stableVersion: write.version,
      canaryVersion:
        current?.canaryVersion === write.version ? null : (current?.canaryVersion ?? null),
      canaryPercent: current?.canaryVersion === write.version ? 0 : (current?.canaryPercent ?? 0),
      previousStableVersion: current?.stableVersion ?? null,
      updatedBy: write.createdBy,
      updatedAt: new Date(),
    };
    await tx.release.upsert({
      where: { toolId: write.toolId },
      create: { toolId: write.toolId, ...next },
      update: next,
    });
  }
}

function tagsOf(ir: Record<string, unknown>): string[] {
  const tags = ir['tags'];
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}
