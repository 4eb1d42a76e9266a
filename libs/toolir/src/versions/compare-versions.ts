import { compare } from 'semver';
import { ToolgateError } from '../errors/toolgate-error';
import { SemverSchema } from '../ir/tool-ir';

/** Throws ToolgateError `invalid_version` unless `version` is a strict semantic version (no `v` prefix, no ranges). */
export function assertSemver(version: unknown, field = 'version'): string {
  if (typeof version !== 'string' || !SemverSchema.safeParse(version).success) {
    throw new ToolgateError(
      'invalid_version',
      `${field} must be a semantic version like 1.2.3, got ${JSON.stringify(version)}`,
      {
        details: { field, value: version },
      },
    );
  }
  return version;
}

/**
 * Orders two semantic versions by semver precedence: -1 if `a` < `b`, 0 if equal (build metadata ignored), 1 if greater.
 * Throws ToolgateError `invalid_version` for anything that is not a strict semantic version.
 */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  return compare(assertSemver(a, 'a'), assertSemver(b, 'b'));
}
