import { createHash } from 'node:crypto';
import { canonicalJson } from '@toolgate/toolir';

/** SHA-256 (hex) of the canonical JSON of a call's arguments: equal arguments give equal hashes, whatever the key order. */
export function hashArguments(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}
