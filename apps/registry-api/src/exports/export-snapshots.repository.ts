import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SNAPSHOT_HANDLE_PATTERN } from '@toolgate/contract';
import { canonicalJson } from '@toolgate/toolir';
import { z } from 'zod';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';

/** Tool id -> the version an export served. */
export type SnapshotVersions = Readonly<Record<string, string>>;

const SnapshotVersionsSchema = z.record(z.string(), z.string());

// Snapshots never change, so reads are cached for good; the bound keeps a busy replica's memory flat.
const MAX_CACHED = 10_000;

export function snapshotHandleOf(versions: SnapshotVersions): string {
  const digest = createHash('sha256').update(canonicalJson(versions)).digest('base64url');
  return `snap_${digest.slice(0, 22)}`;
}

/** The one data layer of `export_snapshots`: exports write what they resolved, calls read it back. */
@Injectable()
export class ExportSnapshotsRepository {
  private readonly cache = new Map<string, SnapshotVersions>();

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** Stores a resolution (once: equal resolutions share a handle) and returns its handle. */
  async save(versions: SnapshotVersions): Promise<string> {
    const id = snapshotHandleOf(versions);
    if (this.cache.has(id)) return id;
    // INSERT ... ON CONFLICT DO NOTHING: concurrent exports of one new selection write the same row,
    // and Prisma's upsert of an empty update reads first, so the second insert failed on the key.
    await this.database.prisma.exportSnapshot.createMany({
      data: [{ id, versions }],
      skipDuplicates: true,
    });
    this.remember(id, versions);
    return id;
  }

  /** The versions a handle names, or undefined when no export gave it out. */
  async find(id: string): Promise<SnapshotVersions | undefined> {
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    if (!SNAPSHOT_HANDLE_PATTERN.test(id)) return undefined;
    const row = await this.database.prisma.exportSnapshot.findUnique({ where: { id } });
    if (row === null) return undefined;
    const versions = SnapshotVersionsSchema.parse(row.versions);
    this.remember(id, versions);
    return versions;
  }

  private remember(id: string, versions: SnapshotVersions): void {
    if (this.cache.size >= MAX_CACHED) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(id, versions);
  }
}
