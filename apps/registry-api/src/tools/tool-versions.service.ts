import { Injectable, Inject } from '@nestjs/common';
import type {
  DeprecateToolVersionInput,
  InheritableField,
  NextStep,
  PublishedVersion,
  PublishFieldsReport,
  PublishToolVersionInput,
  ToolVersion,
  ToolVersionDiff,
  ToolVersionList,
  ToolVersionWithIr,
} from '@toolgate/contract';
import { compareVersions, isRecord, safeParseToolIR, type ToolIR } from '@toolgate/toolir';
import { major, minor } from 'semver';
import type { Principal } from '../auth/principal';
import { ExportCache } from '../exports/export-cache';
import { toolFromWire } from '../exports/wire-adapters';
import { ToolException, type ProblemIssue } from '../problem/tool.exception';
import {
  deprecationHeaders,
  isUnavailable,
  successorLink,
  type VersionLifecycle,
} from './deprecation-headers';
import { diffToolInputs } from './tool-input-diff';
import type { ReleaseRow } from '../releases/releases.repository';
import { completeWireDefinition, inheritanceSourceOf, predecessorOf } from './tool-version-fields';
import { toolSummaryOf } from './tool-summary';
import { SecretsService } from '../secrets/secrets.service';
import { ToolsRepository, type ToolVersionRow, type ToolWithRelease } from './tools.repository';
import { brownoutsOf, ToolsService } from './tools.service';

export function versionToDto(row: ToolVersionRow): ToolVersion {
  return {
    tool_id: row.toolId,
    version: row.version,
    status: row.status,
    schema_version: row.schemaVersion,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    deprecated_at: row.deprecatedAt?.toISOString() ?? null,
    sunset_at: row.sunsetAt?.toISOString() ?? null,
    successor_version: row.successorVersion,
    brownouts: brownoutsOf(row),
  };
}

export function versionWithIrToDto(row: ToolVersionRow): ToolVersionWithIr {
  return { ...versionToDto(row), ir: storedIrOf(row) };
}

/** A stored ToolIR: every write stores the object `parseToolIR` gave, so anything else is corruption. */
function storedIrOf(row: ToolVersionRow): Record<string, unknown> {
  if (isRecord(row.ir)) return row.ir;
  throw new Error(`version ${row.version} of tool ${row.toolId} holds no ToolIR object`);
}

export function lifecycleOf(row: ToolVersionRow): VersionLifecycle {
  return {
    toolId: row.toolId,
    deprecatedAt: row.deprecatedAt,
    sunsetAt: row.sunsetAt,
    successorVersion: row.successorVersion,
    brownouts: brownoutsOf(row),
  };
}

/** The 410 for a version past its sunset (or in a brownout), naming its successor. */
export function sunsetException(
  row: Pick<ToolVersionRow, 'toolId' | 'version' | 'successorVersion' | 'sunsetAt'>,
): ToolException {
  const successor = row.successorVersion;
  return new ToolException(
    'version_sunset',
    `Version ${row.version} of tool ${row.toolId} is no longer served${successor ? `; use ${successor}` : ''}.`,
    {
      extensions: {
        tool_id: row.toolId,
        version: row.version,
        sunset_at: row.sunsetAt?.toISOString() ?? null,
        successor_version: successor,
      },
      headers: successor ? { link: successorLink(row.toolId, successor) } : {},
    },
  );
}

/** Whether going from `from` to `to` allows breaking changes (semver: a major bump; in 0.x a minor one). */
function allowsBreaking(from: string, to: string): boolean {
  if (major(to) !== major(from)) return major(to) > major(from);
  return major(to) === 0 && minor(to) > minor(from);
}

function prefixIssues(
  issues: ReadonlyArray<{ path: string; message: string }>,
  prefix: string,
): ProblemIssue[] {
  return issues.map((issue) => ({
    path: `${prefix}${issue.path === '/' ? '' : issue.path}`,
    message: issue.message,
  }));
}

export interface ServedVersion {
  version: ToolVersionWithIr;
  headers: Record<string, string>;
}

@Injectable()
export class ToolVersionsService {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(ToolsService) private readonly tools: ToolsService,
    @Inject(ToolsRepository) private readonly repository: ToolsRepository,
    @Inject(ExportCache) private readonly cache: ExportCache,
    @Inject(SecretsService) private readonly secrets: SecretsService,
  ) {}

  /**
   * Publishes (or drafts) a version. A version is served only once it is stable or canary, so the
   * answer says whether it is and, if not, which request puts it into rotation; a tool's first
   * published version becomes stable unless the request says `release: "none"`.
   */
  async publish(
    principal: Principal,
    toolId: string,
    body: PublishToolVersionInput,
  ): Promise<PublishedVersion> {
    const tool = await this.tools.requireOwned(principal, toolId);
    const existing = await this.repository.listVersions(toolId);
    const published = existing.filter((row) => row.status === 'published');
    const { ir, fields } = this.toToolIR(tool, body, published);
    if (existing.some((row) => row.version === ir.version)) {
      throw new ToolException('conflict', `Version ${ir.version} of ${tool.name} already exists.`, {
        issues: [
          {
            path: 'ir' in body ? '/body/ir/version' : '/body/version',
            message: 'already exists; versions are immutable',
          },
        ],
      });
    }
    if (body.status === 'published') {
      this.refuseUnannouncedBreaks(ir, published);
      // A served version whose secrets are missing would fail every call; drafts may wait for them.
      await this.secrets.requireReferencedSecrets(
        tool.teamId,
        ir,
        'ir' in body ? '/body/ir/protocol_meta/toolgate/executor' : '/body/executor',
      );
    }
    const newest = published.every((row) => compareVersions(row.version, ir.version) < 0);
    const release = releaseOnPublish(body, published.length === 0);
    const created = await this.repository.createVersion(
      {
        toolId,
        version: ir.version,
        ir,
        schemaVersion: ir.schema_version,
        status: body.status,
        createdBy: principal.actor,
        toolSummary:
          newest && body.status === 'published' ? toolSummaryOf(ir, tool.tags) : undefined,
      },
      {
        actor: principal.actor,
        teamId: tool.teamId,
        action: body.status === 'published' ? 'tool_version.published' : 'tool_version.drafted',
        entityType: 'tool',
        entityId: toolId,
        data: { version: ir.version, format: 'format' in body ? body.format : 'toolir' },
      },
      release === undefined
        ? undefined
        : {
            when: release,
            audit: {
              actor: principal.actor,
              teamId: tool.teamId,
              action: 'release.stable_set',
              entityType: 'tool',
              entityId: toolId,
            },
          },
    );
    this.cache.invalidate();
    return {
      ...publishedToDto(created.version, created.release),
      ...(fields === undefined ? {} : { fields }),
    };
  }

  /** Publishes a draft, with the same breaking-change rule as a direct publish. */
  async publishDraft(
    principal: Principal,
    target: { toolId: string; version: string },
  ): Promise<PublishedVersion> {
    const tool = await this.tools.requireOwned(principal, target.toolId);
    const row = await this.requireVersion(target.toolId, target.version);
    if (row.status !== 'draft') {
      throw new ToolException('conflict', `Version ${target.version} is already published.`);
    }
    const parsed = safeParseToolIR(row.ir);
    if (!parsed.ok) {
      throw new ToolException(
        'invalid_tool_definition',
        'The stored draft is not a valid ToolIR.',
        {
          issues: parsed.issues,
        },
      );
    }
    const published = (await this.repository.listVersions(target.toolId)).filter(
      (candidate) => candidate.status === 'published',
    );
    this.refuseUnannouncedBreaks(parsed.value, published);
    // The pointers address the stored draft's ToolIR.
    await this.secrets.requireReferencedSecrets(
      tool.teamId,
      parsed.value,
      '/ir/protocol_meta/toolgate/executor',
    );
    const newest = published.every(
      (candidate) => compareVersions(candidate.version, target.version) < 0,
    );
    const updated = await this.repository.publishDraft(
      {
        ...target,
        toolSummary: newest ? toolSummaryOf(parsed.value, tool.tags) : undefined,
      },
      {
        actor: principal.actor,
        teamId: tool.teamId,
        action: 'tool_version.published',
        entityType: 'tool',
        entityId: target.toolId,
        data: { version: target.version, format: 'draft' },
      },
    );
    if (!updated) {
      throw new ToolException('conflict', `Version ${target.version} is already published.`);
    }
    this.cache.invalidate();
    // A draft is published as is: putting it into rotation stays a separate, deliberate step.
    return publishedToDto(updated, tool.release);
  }

  async list(principal: Principal, toolId: string): Promise<ToolVersionList> {
    await this.tools.requireVisible(principal, toolId);
    const rows = await this.repository.listVersions(toolId);
    rows.sort((left, right) => compareVersions(right.version, left.version));
    return { items: rows.map(versionToDto) };
  }

  /** One version with its IR; deprecated ones carry Deprecation/Sunset/Link headers, sunset ones are 410. */
  async get(principal: Principal, toolId: string, version: string): Promise<ServedVersion> {
    await this.tools.requireVisible(principal, toolId);
    const row = await this.requireVersion(toolId, version);
    if (isUnavailable(lifecycleOf(row), new Date())) throw sunsetException(row);
    return { version: versionWithIrToDto(row), headers: deprecationHeaders(lifecycleOf(row)) };
  }

  async deprecate(
    principal: Principal,
    { toolId, version }: { toolId: string; version: string },
    body: DeprecateToolVersionInput,
  ): Promise<ToolVersion> {
    const tool = await this.tools.requireOwned(principal, toolId);
    const row = await this.requireVersion(toolId, version);
    const sunsetAt = new Date(body.sunset_at);
    const issues: ProblemIssue[] = [];
    if (sunsetAt.getTime() <= Date.now())
      issues.push({ path: '/body/sunset_at', message: 'must be in the future' });
    body.brownouts.forEach((window, index) => {
      if (Date.parse(window.end) > sunsetAt.getTime()) {
        issues.push({
          path: `/body/brownouts/${index}/end`,
          message: 'a brownout must end before the sunset',
        });
      }
    });
    if (body.successor !== undefined) {
      if (body.successor === version)
        issues.push({ path: '/body/successor', message: 'a version cannot succeed itself' });
      const successor = await this.repository.findVersion(toolId, body.successor);
      if (!successor || successor.status !== 'published') {
        issues.push({ path: '/body/successor', message: `no published version ${body.successor}` });
      } else if (successor.deprecatedAt !== null) {
        issues.push({ path: '/body/successor', message: 'the successor is itself deprecated' });
      }
    }
    if (issues.length > 0) {
      throw new ToolException('invalid_request', 'The deprecation is not valid.', {
        issues,
      });
    }
    if (row.sunsetAt !== null && row.sunsetAt.getTime() <= Date.now()) throw sunsetException(row);
    const updated = await this.repository.deprecateVersion(
      {
        toolId,
        version,
        sunsetAt,
        successorVersion: body.successor ?? null,
        brownouts: body.brownouts,
      },
      {
        actor: principal.actor,
        teamId: tool.teamId,
        action: 'tool_version.deprecated',
        entityType: 'tool',
        entityId: toolId,
        data: {
          version,
          sunset_at: sunsetAt.toISOString(),
          successor: body.successor ?? null,
          brownouts: body.brownouts,
        },
      },
    );
    this.cache.invalidate();
    return versionToDto(updated);
  }

  async diff(
    principal: Principal,
    toolId: string,
    range: { from: string; to: string },
  ): Promise<ToolVersionDiff> {
    await this.tools.requireVisible(principal, toolId);
    const [from, to] = await Promise.all([
      this.requireVersion(toolId, range.from),
      this.requireVersion(toolId, range.to),
    ]);
    const changes = diffToolInputs(from.ir, to.ir);
    return {
      tool_id: toolId,
      from: range.from,
      to: range.to,
      breaking: changes.some((change) => change.breaking),
      changes,
    };
  }

  private async requireVersion(toolId: string, version: string): Promise<ToolVersionRow> {
    const row = await this.repository.findVersion(toolId, version);
    if (!row)
      throw new ToolException('version_not_found', `Tool ${toolId} has no version ${version}.`);
    return row;
  }

  /**
   * Builds and checks the ToolIR of a publish request; every problem is one 422 listing them all,
   * with paths into the body. A wire definition is completed from `published` (see
   * `completeWireDefinition`) and the answer reports where each missing field came from.
   */
  private toToolIR(
    tool: ToolWithRelease,
    body: PublishToolVersionInput,
    published: readonly ToolVersionRow[],
  ): { ir: ToolIR; fields?: PublishFieldsReport } {
    if ('ir' in body) {
      const parsed = safeParseToolIR(body.ir);
      const issues = parsed.ok ? [] : prefixIssues(parsed.issues, '/body/ir');
      // Identity is checked beside the definition's own problems, so one round fixes everything.
      const flagged = new Set(issues.map((issue) => issue.path));
      const { id, name } = body.ir;
      if (id !== tool.id && !flagged.has('/body/ir/id'))
        issues.push({ path: '/body/ir/id', message: `must be the tool's stable id ${tool.id}` });
      if (name !== tool.name && !flagged.has('/body/ir/name'))
        issues.push({ path: '/body/ir/name', message: `must be the tool's name "${tool.name}"` });
      if (!parsed.ok || issues.length > 0) {
        throw new ToolException('invalid_tool_definition', 'The tool definition is not valid.', {
          issues,
        });
      }
      return { ir: parsed.value };
    }
    const imported = toolFromWire(body.format, body.definition);
    if (!imported.ok) {
      throw new ToolException(
        'invalid_tool_definition',
        `The ${body.format} definition cannot be imported.`,
        { issues: prefixIssues(imported.issues, '/body/definition') },
      );
    }
    const completed = completeWireDefinition({
      imported: imported.ir,
      overrides: {
        behavior: body.behavior,
        constraints: body.constraints,
        executor: body.executor,
      },
      source: inheritanceSourceOf(body.version, published),
    });
    // The registry owns identity and versioning; the wire format knows neither.
    const parsed = safeParseToolIR({
      ...completed.candidate,
      id: tool.id,
      name: tool.name,
      version: body.version,
      tags: tool.tags,
    });
    if (!parsed.ok) {
      throw new ToolException('invalid_tool_definition', 'The tool definition is not valid.', {
        issues: parsed.issues.map((issue) => ({
          path: wireIssuePath(issue.path, completed.fromRequest),
          message: issue.message,
        })),
        // What was inherited or defaulted may be the cause (an inherited `inline` beside a
        // destructive behavior), so the problem carries the same report as a success.
        extensions: { fields: completed.fields },
      });
    }
    return { ir: parsed.value, fields: completed.fields };
  }

  /** A breaking change to the arguments without a major bump would break every pinned caller: refuse it. */
  private refuseUnannouncedBreaks(ir: ToolIR, published: readonly ToolVersionRow[]): void {
    const predecessor = predecessorOf(ir.version, published);
    if (!predecessor || allowsBreaking(predecessor.version, ir.version)) return;
    const breaks = diffToolInputs(predecessor.ir, ir).filter((change) => change.breaking);
    if (breaks.length === 0) return;
    throw new ToolException(
      'breaking_change',
      `Version ${ir.version} breaks callers of ${predecessor.version}; publish it as ${major(predecessor.version) + 1}.0.0 or keep the change compatible.`,
      {
        issues: breaks.map((change) => ({ path: change.path, message: change.message })),
        extensions: { previous_version: predecessor.version, breaking_changes: breaks },
      },
    );
  }
}

/**
 * The release change a publish asks for: explicit `release`, else `stable` for what may be the
 * tool's first published version (checked again in the transaction), else none. A draft is never
 * released (the DTO refuses `release: "stable"` beside `status: "draft"`).
 */
function releaseOnPublish(
  body: PublishToolVersionInput,
  noPublishedVersion: boolean,
): 'always' | 'if_first' | undefined {
  if (body.status !== 'published' || body.release === 'none') return undefined;
  if (body.release === 'stable') return 'always';
  return noPublishedVersion ? 'if_first' : undefined;
}

/** The answer to a publish: the version, whether callers get it, and if not, how they would. */
export function publishedToDto(row: ToolVersionRow, release: ReleaseRow | null): PublishedVersion {
  const summary = {
    stable_version: release?.stableVersion ?? null,
    canary_version: release?.canaryVersion ?? null,
    canary_percent: release?.canaryPercent ?? 0,
  };
  const served =
    row.status === 'published' &&
    (summary.stable_version === row.version ||
      (summary.canary_version === row.version && summary.canary_percent > 0));
  return {
    ...versionWithIrToDto(row),
    served,
    release: summary,
    next: served ? null : nextStep(row, summary.stable_version),
  };
}

function nextStep(row: ToolVersionRow, stableVersion: string | null): NextStep {
  const base = `/v1/tools/${row.toolId}`;
  if (row.status === 'draft') {
    return {
      method: 'POST',
      href: `${base}/versions/${row.version}/publish`,
      description: `Publish draft ${row.version}; then set it stable or canary to serve it.`,
    };
  }
  return {
    method: 'PUT',
    href: `${base}/release/stable`,
    body: { version: row.version },
    description:
      stableVersion === null
        ? `Serve ${row.version} to every caller (the tool has no stable version yet).`
        : `Serve ${row.version} to every caller instead of ${stableVersion}, or PUT ${base}/release/canary {version, percent} to serve it to a share first.`,
  };
}

/** A problem of the completed wire definition, at its place in the body: a given field, or the definition. */
function wireIssuePath(path: string, fromRequest: ReadonlySet<InheritableField>): string {
  const at = (prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);
  if (fromRequest.has('behavior') && at('/behavior')) return `/body${path}`;
  if (fromRequest.has('constraints') && at('/constraints')) return `/body${path}`;
  const executor = '/protocol_meta/toolgate/executor';
  if (fromRequest.has('executor') && at(executor))
    return `/body/executor${path.slice(executor.length)}`;
  return `/body/definition${path === '/' ? '' : path}`;
}
