import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** How every API key this server issues begins. */
export const API_KEY_PREFIX = 'tg_';

// tg_<key id as 32 hex digits>_<32 random bytes, base64url>: the id finds the row, the secret proves possession.
const KEY_PATTERN = /^tg_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface ParsedApiKey {
  id: string;
  secret: string;
}

export interface NewApiKey {
  id: string;
  /** The whole bearer token; shown once at creation, never stored. */
  token: string;
  secretHash: string;
}

function toUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new key: 256 bits of entropy, so a fast hash at rest is as strong as a slow one. */
export function generateApiKey(): NewApiKey {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `tg_${id.replace(/-/g, '')}_${secret}`, secretHash: hashSecret(secret) };
}

export function parseApiKey(token: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(token);
  if (!match?.[1] || !match[2]) return null;
  return { id: toUuid(match[1]), secret: match[2] };
}

/** Compares two hex digests in constant time. */
export function digestsEqual(leftHex: string, rightHex: string): boolean {
  const left = Buffer.from(leftHex, 'hex');
  const right = Buffer.from(rightHex, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
