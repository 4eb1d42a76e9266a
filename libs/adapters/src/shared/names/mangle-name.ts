import { stableHash } from '../stable-hash';
import type { NameRules } from './name-rules';
import { satisfiesRules } from './name-rules';

const HASH_LENGTH = 8;

/**
 * Rewrites a name the wire rejects, deterministically: invalid characters become `_`, the name is
 * cut to leave room, and `_` + 8 hex of a hash of the original is appended so that distinct
 * originals stay distinct. A valid name is returned unchanged.
 */
export function mangleName(name: string, rules: NameRules): string {
  if (satisfiesRules(name, rules)) return name;
  let body = Array.from(name)
    .map((character) => (rules.allowed.test(character) ? character : '_'))
    .join('');
  if (!rules.first.test(body.charAt(0))) body = `_${body}`;
  const suffix = `_${stableHash(name).slice(0, HASH_LENGTH)}`;
  return body.slice(0, rules.maxLength - suffix.length) + suffix;
}
