import { maxSatisfying, validRange } from 'semver';
import { ToolgateError } from '../errors/toolgate-error';
import { canaryBucket } from './canary-bucket';
import { assertSemver } from './compare-versions';

/** One published version of a tool, as far as version resolution cares. */
export interface VersionCandidate {
  version: string;
  /** From this instant on the version is never served; a string must be an ISO 8601 date-time. */
  sunset_at?: Date | string | null;
  /** When the version was deprecated; it is still served, with a deprecation notice. */
  deprecated_at?: Date | string | null;
  /** Lifecycle status: `retired` and `sunset` versions are never served, `draft` only to an exact pin, `deprecated` is flagged. */
  status?: string | null;
}

/** A canary rollout: `percent` (0-100, 0.01 steps) of subjects get `version` instead of the stable one. */
export interface CanaryRollout {
  version: string;
  percent: number;
}

/** Everything `resolveVersion` needs to pick the version one caller gets. */
export interface ResolveVersionInput {
  versions: readonly VersionCandidate[];
  /** The version everyone gets unless a pin or the canary says otherwise. */
  stable: string;
  canary?: CanaryRollout | null;
  /** The caller's pin: an exact version (`2.1.0`), a range (`^2.1`, `~2.1.3`, `2.x`) or a label (`stable`, `canary`). */
  pin?: string | null;
  /** Who is asking (an API key, app or user id): the unit of canary bucketing. */
  subject: string;
  toolId: string;
  /** The instant sunsets are judged against; defaults to the current time. */
  now?: Date;
}

/** Why a version was chosen: the caller's pin, the caller's canary bucket, or the stable track. */
export type ResolutionReason = 'pinned' | 'canary' | 'stable';

/** The version one caller gets, why, and what to tell them about its lifecycle. */
export interface ResolvedVersion {
  version: string;
  reason: ResolutionReason;
  /** The caller's canary bucket in [0, 10000), present when a canary rollout was consulted. */
  bucket?: number;
  /** Set when the version is deprecated (for a `Deprecation` header); the date, when known. */
  deprecated?: { at?: Date };
  /** When the served version will stop being served (for a `Sunset` header). */
  sunset_at?: Date;
}

interface Candidate {
  version: string;
  sunsetAt: Date | undefined;
  deprecatedAt: Date | undefined;
  status: string | undefined;
}

type PinKind =
  | { kind: 'label'; label: 'stable' | 'canary' }
  | { kind: 'exact'; version: string }
  | { kind: 'range'; range: string };

function toDate(value: Date | string | null | undefined, field: string): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new ToolgateError('invalid_version', `${field} is not a valid date: ${String(value)}`, {
      details: { field, value: String(value) },
    });
  }
  return date;
}

function toCandidates(versions: readonly VersionCandidate[]): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>();
  versions.forEach((entry, index) => {
    const version = assertSemver(entry.version, `versions[${index}].version`);
    candidates.set(version, {
      version,
      sunsetAt: toDate(entry.sunset_at, `versions[${index}].sunset_at`),
      deprecatedAt: toDate(entry.deprecated_at, `versions[${index}].deprecated_at`),
      status: entry.status ?? undefined,
    });
  });
  return candidates;
}

function isSunset(candidate: Candidate, now: Date): boolean {
  if (candidate.status === 'retired' || candidate.status === 'sunset') return true;
  return candidate.sunsetAt !== undefined && candidate.sunsetAt.getTime() <= now.getTime();
}

function parsePin(pin: string): PinKind {
  const trimmed = pin.trim();
  if (trimmed === 'stable' || trimmed === 'canary') return { kind: 'label', label: trimmed };
  if (/^\d+\.\d+\.\d+(?:[-+].*)?$/.test(trimmed))
    return { kind: 'exact', version: assertSemver(trimmed, 'pin') };
  // semver tolerates a `v` or `=` prefix; ToolIR versions never carry one, so a pin must not either.
  if (trimmed !== '' && !/^[vV=]/.test(trimmed) && validRange(trimmed) !== null)
    return { kind: 'range', range: trimmed };
  throw new ToolgateError(
    'invalid_version',
    `pin must be a version, a range or stable/canary, got ${JSON.stringify(pin)}`,
    {
      details: { field: 'pin', value: pin },
    },
  );
}

function sunsetError(candidate: Candidate, toolId: string): ToolgateError {
  return new ToolgateError(
    'version_sunset',
    `Version ${candidate.version} of tool ${toolId} is past its sunset`,
    {
      details: {
        toolId,
        version: candidate.version,
        sunset_at: candidate.sunsetAt?.toISOString() ?? null,
      },
    },
  );
}

function notFoundError(toolId: string, requested: string): ToolgateError {
  return new ToolgateError(
    'version_not_found',
    `Tool ${toolId} has no version matching ${requested}`,
    {
      details: { toolId, requested },
    },
  );
}

function lookup(candidates: Map<string, Candidate>, version: string, toolId: string): Candidate {
  const candidate = candidates.get(version);
  if (candidate === undefined) throw notFoundError(toolId, version);
  return candidate;
}

function resolved(
  candidate: Candidate,
  reason: ResolutionReason,
  bucket: number | undefined,
): ResolvedVersion {
  const deprecated = candidate.deprecatedAt !== undefined || candidate.status === 'deprecated';
  return {
    version: candidate.version,
    reason,
    ...(bucket === undefined ? {} : { bucket }),
    ...(deprecated
      ? { deprecated: candidate.deprecatedAt === undefined ? {} : { at: candidate.deprecatedAt } }
      : {}),
    ...(candidate.sunsetAt === undefined ? {} : { sunset_at: candidate.sunsetAt }),
  };
}

interface RangeQuery {
  range: string;
  candidates: Map<string, Candidate>;
  toolId: string;
  now: Date;
}

function resolveRange({ range, candidates, toolId, now }: RangeQuery): ResolvedVersion {
  const matching = [...candidates.values()].filter(
    (candidate) =>
      candidate.status !== 'draft' && maxSatisfying([candidate.version], range) !== null,
  );
  const live = matching.filter((candidate) => !isSunset(candidate, now));
  const best = maxSatisfying(
    live.map((candidate) => candidate.version),
    range,
  );
  if (best !== null) return resolved(lookup(candidates, best, toolId), 'pinned', undefined);
  const newestSunset = maxSatisfying(
    matching.map((candidate) => candidate.version),
    range,
  );
  if (newestSunset !== null) throw sunsetError(lookup(candidates, newestSunset, toolId), toolId);
  throw notFoundError(toolId, range);
}

/**
 * Picks the version of a tool one caller gets: pin > canary bucket > stable, never a version past its sunset.
 * A range pin gets the highest live match; a `stable` pin skips the canary, a `canary` pin gets the live canary
 * (or stable when there is none). When the stable version is sunset, a live canary serves everyone;
 * with no live canary either, it throws `version_sunset`. Throws `version_not_found` for an unknown version or
 * an unmatched range, `version_sunset` for a pin to a sunset version, `invalid_version` for malformed input.
 */
export function resolveVersion(input: ResolveVersionInput): ResolvedVersion {
  const now = input.now ?? new Date();
  const candidates = toCandidates(input.versions);
  const stableVersion = assertSemver(input.stable, 'stable');
  const rollout = input.canary ?? undefined;
  if (rollout !== undefined) {
    assertSemver(rollout.version, 'canary.version');
    if (!(rollout.percent >= 0 && rollout.percent <= 100)) {
      throw new ToolgateError(
        'invalid_version',
        `canary percent must be between 0 and 100, got ${rollout.percent}`,
        {
          details: { field: 'canary.percent', value: rollout.percent },
        },
      );
    }
  }
  const pin = input.pin === undefined || input.pin === null ? undefined : parsePin(input.pin);
  // An explicit version or range is honoured on its own: it does not depend on the rollout's state.
  if (pin?.kind === 'exact') {
    const candidate = lookup(candidates, pin.version, input.toolId);
    if (isSunset(candidate, now)) throw sunsetError(candidate, input.toolId);
    return resolved(candidate, 'pinned', undefined);
  }
  if (pin?.kind === 'range')
    return resolveRange({ range: pin.range, candidates, toolId: input.toolId, now });

  const canary =
    rollout === undefined ? undefined : lookup(candidates, rollout.version, input.toolId);
  const liveCanary = canary !== undefined && !isSunset(canary, now) ? canary : undefined;
  if (pin?.label === 'canary' && liveCanary !== undefined)
    return resolved(liveCanary, 'canary', undefined);

  const stable = lookup(candidates, stableVersion, input.toolId);
  const consultCanary = liveCanary !== undefined && rollout !== undefined && pin === undefined;
  const bucket = consultCanary ? canaryBucket(input.subject, input.toolId) : undefined;
  if (
    liveCanary !== undefined &&
    rollout !== undefined &&
    bucket !== undefined &&
    bucket < Math.round(rollout.percent * 100)
  ) {
    return resolved(liveCanary, 'canary', bucket);
  }
  if (!isSunset(stable, now)) return resolved(stable, 'stable', bucket);
  // The stable version is gone: the canary is the only other version the operator put into rotation.
  if (liveCanary !== undefined) return resolved(liveCanary, 'canary', bucket);
  throw sunsetError(stable, input.toolId);
}
