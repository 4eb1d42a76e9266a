import { randomUUID } from 'node:crypto';
import type { ImportedTool } from '@toolgate/contract';
import { approvalReasonOfBehavior, readExecutorConfig, secretReferencesOf } from '@toolgate/engine';
import type { ToolIR } from '@toolgate/toolir';
import type { AuditEntry } from '../audit/audit.repository';
import type { Principal } from '../auth/principal';
import { exportValidity } from './export-validity';
import type { ImportedToolRow, ToolVersionWrite } from './imports.repository';
import {
  CandidateError,
  candidateToIR,
  planToolVersion,
  type ToolCandidate,
  type ToolVersionPlan,
} from './tool-version-plan';

/** A candidate with what the source says beyond the common fields. */
export interface CandidateInput<TSource> {
  candidate: ToolCandidate;
  source: TSource;
  timeoutMs: number;
  outputSchema?: Record<string, unknown> | undefined;
  title?: string | undefined;
  /** The tool this candidate must version (an upstream tool already mirrored), else found by name. */
  existing?: ImportedToolRow | undefined;
  /** The existing tool had been dropped by its source and is coming back. */
  retired?: boolean | undefined;
}

export interface PlannedTool<TSource> {
  source: TSource;
  plan: ToolVersionPlan;
  dto: ImportedTool;
}

export interface ImportPlan<TSource> {
  planned: Array<PlannedTool<TSource>>;
  failed: Array<{ source: TSource; reason: string }>;
  versions: ToolVersionWrite[];
  audit: AuditEntry[];
}

/**
 * Plans the tool versions of an import: a tool per new name, a version per changed tool (breaking
 * changes bump the major), nothing for unchanged ones; with the rows and audit events to write.
 */
export function planImport<TSource>(
  inputs: ReadonlyArray<CandidateInput<TSource>>,
  context: {
    principal: Principal;
    teamId: string;
    publish: boolean;
    byName: ReadonlyMap<string, ImportedToolRow>;
    origin: Record<string, unknown>;
    /** The names of the secrets the team has. */
    teamSecrets: ReadonlySet<string>;
  },
): ImportPlan<TSource> {
  const result: ImportPlan<TSource> = { planned: [], failed: [], versions: [], audit: [] };
  const status = context.publish ? 'published' : 'draft';
  for (const input of inputs) {
    const existing = input.existing ?? context.byName.get(input.candidate.name) ?? null;
    let plan: ToolVersionPlan;
    try {
      plan = planToolVersion(
        existing === null
          ? null
          : {
              id: existing.id,
              name: existing.name,
              tags: existing.tags,
              versions: existing.versions,
              retired: input.retired,
            },
        (id, version): ToolIR =>
          candidateToIR(input.candidate, {
            id,
            version,
            timeoutMs: input.timeoutMs,
            outputSchema: input.outputSchema,
            title: input.title,
          }),
        randomUUID,
      );
    } catch (error) {
      if (!(error instanceof CandidateError)) throw error;
      result.failed.push({ source: input.source, reason: `not a valid tool: ${error.message}` });
      continue;
    }
    if (
      plan.action === 'unchanged' &&
      context.publish &&
      statusOf(existing, plan.ir.version) === 'draft'
    ) {
      plan = { ...plan, action: 'published_draft' };
    }
    const dto: ImportedTool = {
      name: plan.ir.name,
      tool_id: plan.toolId,
      action: plan.action,
      version: plan.ir.version,
      previous_version: plan.previousVersion,
      status: plan.action === 'unchanged' ? statusOf(existing, plan.ir.version) : status,
      bump: plan.bump,
      changes: plan.changes,
      warnings: input.candidate.warnings,
      needs_approval: approvalReasonOfBehavior(plan.ir.behavior) !== undefined,
      exports: exportValidity(plan.ir),
      secrets: secretsOf(plan.ir, context.teamSecrets),
    };
    result.planned.push({ source: input.source, plan, dto });
    if (plan.action === 'unchanged') continue;
    const audit = (action: string, data: Record<string, unknown>): AuditEntry => ({
      actor: context.principal.actor,
      teamId: context.teamId,
      action,
      entityType: 'tool',
      entityId: plan.toolId,
      data: { ...data, import: context.origin },
    });
    result.versions.push({
      newTool:
        plan.action === 'created'
          ? {
              teamId: context.teamId,
              name: plan.ir.name,
              description: plan.ir.description,
              tags: plan.ir.tags ?? [],
            }
          : undefined,
      draftExists: plan.action === 'published_draft',
      toolId: plan.toolId,
      version: plan.ir.version,
      ir: plan.ir,
      status,
      createdBy: context.principal.actor,
    });
    if (plan.action === 'created')
      result.audit.push(audit('tool.created', { name: plan.ir.name, tags: plan.ir.tags ?? [] }));
    result.audit.push(
      audit(context.publish ? 'tool_version.published' : 'tool_version.drafted', {
        version: plan.ir.version,
        previous_version: plan.previousVersion,
        bump: plan.bump,
        breaking_changes: plan.changes.filter((change) => change.breaking).length,
      }),
    );
    if (context.publish) {
      result.audit.push(
        audit('release.stable_set', {
          after: { stableVersion: plan.ir.version },
          previous_stable_version: existing?.release?.stableVersion ?? null,
        }),
      );
    }
  }
  return result;
}

function statusOf(existing: ImportedToolRow | null, version: string): 'draft' | 'published' {
  return existing?.versions.find((row) => row.version === version)?.status ?? 'draft';
}

/** The secrets a version's calls send, each once, and whether the team has it. */
export function secretsOf(ir: ToolIR, teamSecrets: ReadonlySet<string>): ImportedTool['secrets'] {
  const read = readExecutorConfig(ir);
  if (!read.ok) return [];
  const names = [...new Set(secretReferencesOf(read.config).map((reference) => reference.name))];
  return names.map((name) => ({ name, set: teamSecrets.has(name) }));
}
