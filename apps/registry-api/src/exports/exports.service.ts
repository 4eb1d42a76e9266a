import { createHash } from 'node:crypto';
import { Injectable, Inject } from '@nestjs/common';
import type { ToolsToWireOptions } from '@toolgate/adapters';
import {
  serializeBody,
  type ExportBody,
  type ExportQuery,
  type ExportSkippedTool,
  type ExportToolResolution,
  type SerializedBody,
} from '@toolgate/contract';
import {
  canonicalJson,
  isInCanary,
  resolveVersion,
  ToolgateError,
  type ResolvedVersion,
  type ToolIR,
} from '@toolgate/toolir';
import type { Principal } from '../auth/principal';
import { ToolException } from '../problem/tool.exception';
import { ReleasesRepository, type ReleaseRow } from '../releases/releases.repository';
import { combinedDeprecationHeaders, isUnavailable } from '../tools/deprecation-headers';
import { lifecycleOf, sunsetException } from '../tools/tool-versions.service';
import { brownoutsOf, ToolsService } from '../tools/tools.service';
import {
  ToolsRepository,
  type ListToolsFilter,
  type ToolVersionRow,
  type ToolWithRelease,
} from '../tools/tools.repository';
import { decodeCursor, pageOfRows, ToolPositionCursorSchema } from '../common/pagination';
import { ExportCache } from './export-cache';
import { ExportSnapshotsRepository } from './export-snapshots.repository';
import { toolsToWire } from './wire-adapters';

/** One tool of a catalog, with its unpinned choices worked out once (resolution is the hot path). */
interface CatalogEntry {
  tool: ToolWithRelease;
  rows: ToolVersionRow[];
  release: ReleaseRow | undefined;
  /** What a subject outside the canary gets. */
  outside: Choice | ExportSkippedTool;
  /** What a subject inside the canary gets; null when no canary runs. */
  inside: Choice | ExportSkippedTool | null;
  canaryPercent: number;
}

/** The tools an export selects (visibility, tags, names), before it is paged. */
type Selection = Pick<ListToolsFilter, 'teamId' | 'tags' | 'names'>;

/** What one export page needs from the database, cached per (caller team, filters, page). */
interface Catalog {
  id: number;
  entries: CatalogEntry[];
  /** Tools in the whole selection, on every page. */
  total: number;
  /** The cursor of the next page; null on the last. */
  nextCursor: string | null;
  /** The next sunset or brownout boundary: the precomputed choices expire then. */
  validUntil: number;
}

/** The tools of one page, where the next page starts and the selection's size. */
interface Page {
  tools: ToolWithRelease[];
  nextCursor: string | null;
  total: number;
}

/** How the query asks the tools to be written: strict or not, deferred but for the eager ones. */
function wireOptions(query: ExportQuery): ToolsToWireOptions {
  const strict = query.strict === undefined ? {} : { strict: query.strict };
  if (!query.defer_loading) return strict;
  const eager = new Set(query.eager);
  return { ...strict, deferLoading: (tool) => !eager.has(tool.name) };
}

/** The part of the render key for `wireOptions`: the same tools written another way. */
function wireOptionsKey(query: ExportQuery): string {
  const strict = query.strict === undefined ? '' : `strict:${String(query.strict)}`;
  const defer = query.defer_loading ? `defer:${[...new Set(query.eager)].sort().join(',')}` : '';
  return `${strict};${defer}`;
}

/** A rendered export: the body, as text too, its strong ETag and its lifecycle headers. */
export interface RenderedExport {
  document: ExportBody;
  /** `document` as JSON text, rendered once per cache entry rather than per request. */
  body: SerializedBody<ExportBody>;
  etag: string;
  headers: Record<string, string>;
}

interface Choice {
  tool: ToolWithRelease;
  row: ToolVersionRow;
  resolved: ResolvedVersion;
}

function isChoice(value: Choice | ExportSkippedTool): value is Choice {
  return 'row' in value;
}

let catalogIds = 0;

@Injectable()
export class ExportsService {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(ToolsRepository) private readonly tools: ToolsRepository,
    @Inject(ReleasesRepository) private readonly releases: ReleasesRepository,
    @Inject(ExportCache) private readonly cache: ExportCache,
    @Inject(ExportSnapshotsRepository) private readonly snapshots: ExportSnapshotsRepository,
    @Inject(ToolsService) private readonly toolsService: ToolsService,
  ) {}

  async export(principal: Principal, query: ExportQuery, subject: string): Promise<RenderedExport> {
    await this.cache.revalidate();
    const catalog = await this.catalog(principal, query);
    const pins = new Map((query.pin ?? []).map((pin) => [pin.name, pin.spec]));
    const now = new Date();
    const picked: Array<Choice | ExportSkippedTool> = [];
    // The render key: which side of each canary this subject is on, and the pinned choices.
    let key = `render|${catalog.id}|${query.format}|${wireOptionsKey(query)}|`;
    for (const entry of catalog.entries) {
      const pin = pins.get(entry.tool.name);
      if (pin !== undefined) {
        const choice = this.choose({ entry, pin, subject, now });
        key += isChoice(choice) ? `p${choice.row.version};` : `s${choice.reason};`;
        picked.push(choice);
      } else if (entry.inside !== null && isInCanary(subject, entry.tool.id, entry.canaryPercent)) {
        key += 'c;';
        picked.push(entry.inside);
      } else {
        key += '-;';
        picked.push(entry.outside);
      }
    }
    const cached = this.cache.get<RenderedExport>(key);
    if (cached) return cached;
    const rendered = await this.render({
      query,
      catalog,
      choices: picked.filter(isChoice),
      skipped: picked.filter((entry): entry is ExportSkippedTool => !isChoice(entry)),
    });
    this.cache.set(key, rendered);
    return rendered;
  }

  /**
   * One page of the selection, by tool name: only its tools and their published versions are read,
   * so a page costs what it returns whatever the catalog's size.
   */
  private async catalog(principal: Principal, query: ExportQuery): Promise<Catalog> {
    const selection: Selection = { teamId: principal.teamId, tags: query.tags, names: query.names };
    const selectionKey = `${principal.teamId ?? '*'}|${canonicalJson({ tags: query.tags, names: query.names, q: query.q ?? null })}`;
    const key = `catalog|${selectionKey}|${query.limit}|${query.cursor ?? ''}`;
    const cached = this.cache.get<Catalog>(key);
    if (cached && Date.now() < cached.validUntil) return cached;
    const { tools, nextCursor, total } =
      query.q === undefined
        ? await this.pageByName(query, selection, selectionKey)
        : await this.pageByMatch(principal, { ...query, q: query.q });
    const ids = tools.map((tool) => tool.id);
    const [releases, versions] = await Promise.all([
      this.releases.releasesOf(ids),
      this.tools.exportableVersionsOf(ids),
    ]);
    const releaseOf = new Map(releases.map((release) => [release.toolId, release]));
    const versionsOf = new Map<string, ToolVersionRow[]>();
    for (const version of versions) {
      versionsOf.set(version.toolId, [...(versionsOf.get(version.toolId) ?? []), version]);
    }
    const now = new Date();
    const boundaries = versions.flatMap((row) => [
      row.sunsetAt?.getTime() ?? Infinity,
      ...brownoutsOf(row).flatMap((window) => [Date.parse(window.start), Date.parse(window.end)]),
    ]);
    const entries = tools.map((tool): CatalogEntry => {
      const release = releaseOf.get(tool.id);
      const base = { tool, rows: versionsOf.get(tool.id) ?? [], release };
      const canaryRuns = Boolean(release?.canaryVersion) && (release?.canaryPercent ?? 0) > 0;
      return {
        ...base,
        canaryPercent: canaryRuns ? (release?.canaryPercent ?? 0) : 0,
        // A `stable` / `canary` label pin resolves exactly as a subject outside / inside the canary.
        outside: this.choose({
          entry: base,
          pin: canaryRuns ? 'stable' : undefined,
          subject: '',
          now,
        }),
        inside: canaryRuns ? this.choose({ entry: base, pin: 'canary', subject: '', now }) : null,
      };
    });
    const catalog: Catalog = {
      id: (catalogIds += 1),
      entries,
      total,
      nextCursor,
      validUntil: Math.min(
        ...boundaries.filter((time) => time > now.getTime()),
        now.getTime() + 3_600_000,
      ),
    };
    this.cache.set(key, catalog);
    return catalog;
  }

  /** A page of the selection by tool name; the selection's size is counted once for all pages. */
  private async pageByName(
    query: ExportQuery,
    selection: Selection,
    selectionKey: string,
  ): Promise<Page> {
    const after =
      query.cursor === undefined ? undefined : decodeCursor(query.cursor, ToolPositionCursorSchema);
    if (after === null) {
      throw new ToolException('invalid_request', 'The cursor is not valid.', {
        issues: [{ path: '/query/cursor', message: 'must be a next_cursor this API returned' }],
      });
    }
    const [rows, total] = await Promise.all([
      this.tools.list({ ...selection, after, limit: query.limit + 1 }),
      this.total(selection, selectionKey),
    ]);
    const page = pageOfRows(rows, query.limit, (last) => ({ name: last.name, id: last.id }));
    return { tools: page.rows, total, nextCursor: page.nextCursor };
  }

  /**
   * A page of the published tools matching `q`, best first: what a model asks for when it
   * wants the few tools a task needs, under the same visibility as every export.
   */
  private async pageByMatch(
    principal: Principal,
    query: ExportQuery & { q: string },
  ): Promise<Page> {
    const page = await this.toolsService.matchPage(principal, {
      q: query.q,
      cursor: query.cursor,
      limit: query.limit,
      filter: { tags: query.tags, status: 'published' },
    });
    return {
      tools: page.matches.map((match) => match.row),
      nextCursor: page.nextCursor,
      total: page.total,
    };
  }

  /** The selection's size, counted once per catalog revision for all of its pages. */
  private async total(selection: Selection, selectionKey: string): Promise<number> {
    const key = `total|${selectionKey}`;
    const cached = this.cache.get<number>(key);
    if (cached !== undefined) return cached;
    const total = await this.tools.count(selection);
    this.cache.set(key, total);
    return total;
  }

  private choose(input: {
    entry: Pick<CatalogEntry, 'tool' | 'rows' | 'release'>;
    pin: string | undefined;
    subject: string;
    now: Date;
  }): Choice | ExportSkippedTool {
    const { entry, pin, now } = input;
    const { tool, rows, release } = entry;
    const stable = release?.stableVersion ?? null;
    if (stable === null && (pin === undefined || pin === 'stable' || pin === 'canary')) {
      return { tool_id: tool.id, name: tool.name, reason: 'no_stable_release' };
    }
    let resolved: ResolvedVersion;
    try {
      resolved = resolveVersion({
        versions: rows.map((row) => ({
          version: row.version,
          sunset_at: row.sunsetAt,
          deprecated_at: row.deprecatedAt,
          // a draft resolves only for an exact pin: ranges and labels never reach it
          status: row.status,
        })),
        // Without a release only a pin can select a version; any existing version satisfies the argument.
        stable: stable ?? rows[0]?.version ?? '0.0.0',
        canary:
          release?.canaryVersion && release.canaryPercent > 0
            ? { version: release.canaryVersion, percent: release.canaryPercent }
            : null,
        pin: pin ?? null,
        subject: input.subject,
        toolId: tool.id,
        now,
      });
    } catch (error) {
      return this.resolutionFailure(error, {
        tool,
        rows,
        pinned: pin !== undefined && pin !== 'stable' && pin !== 'canary',
      });
    }
    const row = rows.find((candidate) => candidate.version === resolved.version);
    if (!row) return { tool_id: tool.id, name: tool.name, reason: 'no_stable_release' };
    if (isUnavailable(lifecycleOf(row), now)) {
      if (pin !== undefined && pin !== 'stable' && pin !== 'canary') throw sunsetException(row);
      return { tool_id: tool.id, name: tool.name, reason: 'brownout' };
    }
    return { tool, row, resolved };
  }

  private resolutionFailure(
    error: unknown,
    context: { tool: ToolWithRelease; rows: ToolVersionRow[]; pinned: boolean },
  ): ExportSkippedTool {
    if (!ToolgateError.isInstance(error)) throw error;
    const { tool, rows, pinned } = context;
    const details = (error.details ?? {}) as { version?: string };
    if (error.code === 'version_sunset') {
      const row = rows.find((candidate) => candidate.version === details.version);
      if (pinned && row) throw sunsetException(row);
      return { tool_id: tool.id, name: tool.name, reason: 'sunset' };
    }
    if (error.code === 'version_not_found') {
      throw new ToolException('version_not_found', `Tool ${tool.name}: ${error.message}.`, {
        issues: [{ path: '/query/pin', message: `no version of ${tool.name} matches` }],
      });
    }
    throw new ToolException('invalid_request', error.message, {
      issues: [{ path: '/query/pin', message: error.message }],
    });
  }

  private async render(page: {
    query: ExportQuery;
    catalog: Catalog;
    choices: Choice[];
    skipped: ExportSkippedTool[];
  }): Promise<RenderedExport> {
    const { query, catalog, choices, skipped } = page;
    const irs = choices.map((choice) => choice.row.ir as unknown as ToolIR);
    const wire = toolsToWire(query.format, irs, wireOptions(query));
    const resolution: ExportToolResolution[] = choices.map(({ tool, row, resolved }) => ({
      tool_id: tool.id,
      name: tool.name,
      version: row.version,
      reason: resolved.reason,
      deprecated: row.deprecatedAt !== null,
      sunset_at: row.sunsetAt?.toISOString() ?? null,
      successor_version: row.successorVersion,
    }));
    // Stored before the export is answered, so a call the model makes with it always finds it.
    const snapshot = await this.snapshots.save(
      Object.fromEntries(choices.map(({ tool, row }) => [tool.id, row.version])),
    );
    const body: ExportBody = {
      format: query.format,
      tools: wire.tools,
      request_options: wire.request_options,
      snapshot,
      resolution,
      skipped,
      downgrades: wire.downgrades,
      total: catalog.total,
      next_cursor: catalog.nextCursor,
    };
    const text = serializeBody(body);
    // Strong ETag (RFC 9110 §8.8.3): the hash of the canonical body, equal bodies equal tags.
    const etag = `"${createHash('sha256').update(canonicalJson(body)).digest('base64url')}"`;
    return {
      document: body,
      body: text,
      etag,
      headers: combinedDeprecationHeaders(choices.map((choice) => lifecycleOf(choice.row))),
    };
  }
}
