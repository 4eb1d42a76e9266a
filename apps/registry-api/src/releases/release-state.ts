import type { ReleaseState } from './releases.repository';

/**
 * The release after `version` becomes stable: a canary of that same version ends (it is now what
 * everyone gets), any other canary keeps running, and the stable version it replaces is kept for
 * rollback. Shared by `PUT .../release/stable` and a publish with `release: "stable"`, so both
 * change a release the same way.
 */
export function withStable(current: ReleaseState | null, version: string): ReleaseState {
  const canaryIsNewStable = current?.canaryVersion === version;
  return {
    stableVersion: version,
    canaryVersion: canaryIsNewStable ? null : (current?.canaryVersion ?? null),
    canaryPercent: canaryIsNewStable ? 0 : (current?.canaryPercent ?? 0),
    previousStableVersion:
      current?.stableVersion === version
        ? current.previousStableVersion
        : (current?.stableVersion ?? null),
  };
}
