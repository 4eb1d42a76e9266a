import {
  canonicalJson,
  compareVersions,
  isRecord,
  safeParseToolIR,
  type ToolBehavior,
  type ToolIR,
} from '@toolgate/toolir';
import { inc } from 'semver';
import type { SchemaChange } from '../tools/json-schema-diff';
import { diffToolInputs } from '../tools/tool-input-diff';

/** What a tool's source (an OpenAPI operation, an upstream MCP tool) decides; the registry adds identity and version. */
export interface ToolCandidate {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  behavior: ToolBehavior;
  tags: string[];
  /** `protocol_meta` of the ToolIR: the executor and where the tool came from. */
  protocolMeta: Record<string, unknown>;
  /** What the tool carries differently from the document (still a faithful tool). */
  warnings: string[];
}

/** Timeout of imported tools; operators change it by publishing a new version. */
export const IMPORTED_TOOL_TIMEOUT_MS = 30_000;

/** The first version of an imported tool. */
export const FIRST_VERSION = '1.0.0';

/** What an import does to one tool; `published_draft` publishes an unchanged newest draft when the import publishes. */
export type PlanAction = 'created' | 'new_version' | 'published_draft' | 'unchanged';
/** How far a new version moves: breaking argument changes -> major, other argument changes -> minor, the rest -> patch. */
export type VersionBump = 'major' | 'minor' | 'patch';

/** The tool as the registry has it, when one with the candidate's name exists. */
export interface ExistingTool {
  id: string;
  name: string;
  tags: string[];
  /** Every version (any status) with its stored IR. */
  versions: ReadonlyArray<{ version: string; ir: unknown }>;
  /** Its source had dropped it (versions deprecated): coming back takes a new version even when unchanged. */
  retired?: boolean | undefined;
}

export interface ToolVersionPlan {
  action: PlanAction;
  toolId: string;
  ir: ToolIR;
  previousVersion: string | null;
  bump: VersionBump | null;
  changes: SchemaChange[];
}

/** Why a candidate cannot be turned into a valid ToolIR. */
export class CandidateError extends Error {
  override readonly name = 'CandidateError';
  constructor(readonly issues: Array<{ path: string; message: string }>) {
    super(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
  }
}

/** The ToolIR of a candidate at one identity and version; throws CandidateError when it is not valid. */
export function candidateToIR(
  candidate: ToolCandidate,
  identity: {
    id: string;
    version: string;
    timeoutMs: number;
    outputSchema?: Record<string, unknown> | undefined;
    title?: string | undefined;
  },
): ToolIR {
  const parsed = safeParseToolIR({
    schema_version: '1.0',
    id: identity.id,
    name: candidate.name,
    ...(identity.title === undefined ? {} : { title: identity.title }),
    version: identity.version,
    description: candidate.description,
    parameters: candidate.parameters,
    ...(identity.outputSchema === undefined ? {} : { outputSchema: identity.outputSchema }),
    behavior: candidate.behavior,
    constraints: { timeout_ms: identity.timeoutMs, max_retries: 0 },
    ...(candidate.tags.length > 0 ? { tags: candidate.tags } : {}),
    protocol_meta: candidate.protocolMeta,
  });
  if (!parsed.ok) throw new CandidateError(parsed.issues);
  return parsed.value;
}

function newest(versions: ExistingTool['versions']): { version: string; ir: unknown } | undefined {
  return [...versions].sort((left, right) => compareVersions(right.version, left.version))[0];
}

function withoutVersion(ir: unknown): unknown {
  if (!isRecord(ir)) return ir;
  const { version: _version, ...rest } = ir;
  return rest;
}

/**
 * Decides what importing `build(id, version)` does to the tool of that name: a new tool at 1.0.0,
 * nothing when the newest version already says the same, or the next version under the registry's
 * breaking-change rule (json-schema-diff), so the publish never breaks pinned callers.
 */
export function planToolVersion(
  existing: ExistingTool | null,
  build: (id: string, version: string) => ToolIR,
  newId: () => string,
): ToolVersionPlan {
  if (existing === null) {
    const ir = build(newId(), FIRST_VERSION);
    return { action: 'created', toolId: ir.id, ir, previousVersion: null, bump: null, changes: [] };
  }
  const latest = newest(existing.versions);
  if (latest === undefined) {
    const ir = build(existing.id, FIRST_VERSION);
    return {
      action: 'new_version',
      toolId: existing.id,
      ir,
      previousVersion: null,
      bump: null,
      changes: [],
    };
  }
  const same = build(existing.id, latest.version);
  if (
    existing.retired !== true &&
    canonicalJson(withoutVersion(same)) === canonicalJson(withoutVersion(latest.ir))
  ) {
    return {
      action: 'unchanged',
      toolId: existing.id,
      ir: same,
      previousVersion: latest.version,
      bump: null,
      changes: [],
    };
  }
  const changes = diffToolInputs(latest.ir, same);
  const bump: VersionBump = changes.some((change) => change.breaking)
    ? 'major'
    : changes.length > 0
      ? 'minor'
      : 'patch';
  const version = inc(latest.version, bump);
  if (version === null)
    throw new CandidateError([{ path: '/version', message: `cannot bump ${latest.version}` }]);
  return {
    action: 'new_version',
    toolId: existing.id,
    ir: build(existing.id, version),
    previousVersion: latest.version,
    bump,
    changes,
  };
}
