import {
  ExecutorConfigSchema,
  type ExecutorConfig,
  type InheritableField,
  type PublishFieldsReport,
} from '@toolgate/contract';
import {
  compareVersions,
  isRecord,
  ToolBehaviorSchema,
  ToolConstraintsSchema,
  type ToolBehavior,
  type ToolConstraints,
  type ToolIR,
} from '@toolgate/toolir';

/** A stored version as far as inheritance needs it. */
export interface StoredVersion {
  version: string;
  ir: unknown;
}

/** What a wire-format publish may give beside its definition. */
export interface WireFieldOverrides {
  behavior?: ToolBehavior | undefined;
  constraints?: ToolConstraints | undefined;
  executor?: ExecutorConfig | undefined;
}

/** The highest of `published` below `version`: the version it succeeds, whose callers it must not break. */
export function predecessorOf<TVersion extends { version: string }>(
  version: string,
  published: readonly TVersion[],
): TVersion | undefined {
  return published
    .filter((row) => compareVersions(row.version, version) < 0)
    .sort((left, right) => compareVersions(right.version, left.version))[0];
}

/**
 * The version a wire-format publish takes its missing fields from: the one it succeeds, else (a
 * version below every published one) the latest published; none for a tool's first version.
 */
export function inheritanceSourceOf<TVersion extends { version: string }>(
  version: string,
  published: readonly TVersion[],
): TVersion | undefined {
  return (
    predecessorOf(version, published) ??
    [...published].sort((left, right) => compareVersions(right.version, left.version))[0]
  );
}

/** The executor a stored ToolIR names (`protocol_meta.toolgate.executor`), if it is a valid one. */
function executorOf(ir: Record<string, unknown>): ExecutorConfig | undefined {
  const meta = ir['protocol_meta'];
  const toolgate = isRecord(meta) ? meta['toolgate'] : undefined;
  const parsed = ExecutorConfigSchema.safeParse(
    isRecord(toolgate) ? toolgate['executor'] : undefined,
  );
  return parsed.success ? parsed.data : undefined;
}

/** Each inheritable field of a stored version, when it is valid; a stored row is never trusted blindly. */
function inheritableOf(source: StoredVersion): Partial<Record<InheritableField, unknown>> {
  if (!isRecord(source.ir)) return {};
  const behavior = ToolBehaviorSchema.safeParse(source.ir['behavior']);
  const constraints = ToolConstraintsSchema.safeParse(source.ir['constraints']);
  const executor = executorOf(source.ir);
  return {
    ...(behavior.success ? { behavior: behavior.data } : {}),
    ...(constraints.success ? { constraints: constraints.data } : {}),
    ...(executor === undefined ? {} : { executor }),
  };
}

// Why each default is what it is: the adapters' conservative import (ToolIR has no implicit behavior).
const DEFAULT_REASONS: Record<InheritableField, string> = {
  behavior:
    'assumed to have effects: not readonly, destructive, not idempotent, so every call needs approval and is never retried',
  constraints: 'the import timeout and no retries',
  executor: 'no executor: calls of this version fail until a version names one',
};

export interface CompletedWireDefinition {
  /** The ToolIR candidate (still to be checked by `parseToolIR`). */
  candidate: Record<string, unknown>;
  fields: PublishFieldsReport;
  /** Fields the request gave, so a problem with one is reported at its place in the body. */
  fromRequest: ReadonlySet<InheritableField>;
}

/**
 * Completes an imported wire definition with what the wire cannot say. Each of behavior,
 * constraints and executor comes from the request, else from `source` (the version this one
 * succeeds), else the import's safe default; every field not given by the request is reported, so
 * a publish never changes how a tool behaves without saying so.
 */
export function completeWireDefinition(input: {
  imported: ToolIR;
  overrides: WireFieldOverrides;
  source: StoredVersion | undefined;
}): CompletedWireDefinition {
  const { imported, overrides, source } = input;
  const inheritable = source === undefined ? {} : inheritableOf(source);
  const defaults: Record<InheritableField, unknown> = {
    behavior: imported.behavior,
    constraints: imported.constraints,
    executor: null,
  };
  const fields: PublishFieldsReport = { inherited: [], defaulted: [] };
  const fromRequest = new Set<InheritableField>();
  const chosen = {} as Record<InheritableField, unknown>;
  for (const field of ['behavior', 'constraints', 'executor'] as const) {
    const given = overrides[field];
    if (given !== undefined) {
      fromRequest.add(field);
      chosen[field] = given;
    } else if (source !== undefined && inheritable[field] !== undefined) {
      fields.inherited.push({ field, from_version: source.version });
      chosen[field] = inheritable[field];
    } else {
      const why =
        source === undefined
          ? 'no earlier published version to inherit from'
          : `version ${source.version} has no valid ${field}`;
      fields.defaulted.push({
        field,
        value: defaults[field],
        reason: `${why}; ${DEFAULT_REASONS[field]}`,
      });
      chosen[field] = defaults[field];
    }
  }
  const { protocol_meta: importedMeta, ...rest } = imported;
  const protocolMeta =
    chosen.executor === null
      ? importedMeta
      : { ...importedMeta, toolgate: { executor: chosen.executor } };
  return {
    candidate: {
      ...rest,
      behavior: chosen.behavior,
      constraints: chosen.constraints,
      ...(protocolMeta === undefined ? {} : { protocol_meta: protocolMeta }),
    },
    fields,
    fromRequest,
  };
}
