import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** A sealed secret value as stored: the key that sealed it and the GCM parts, each base64. */
export interface SealedValue {
  keyId: string;
  nonce: string;
  ciphertext: string;
  authTag: string;
}

/** What a sealed value is bound to: a row moved to another team or name no longer opens. */
export interface SecretBinding {
  teamId: string;
  name: string;
}

/** Thrown when the secret keys in the environment cannot be read (never shows a key). */
export class SecretKeyError extends Error {
  override readonly name = 'SecretKeyError';
}

/** Thrown when a stored value cannot be opened: its key is unknown, or it was altered. */
export class SecretSealError extends Error {
  override readonly name = 'SecretSealError';
}

const KEY_BYTES = 32;
// NIST SP 800-38D §8.2: a 96-bit random nonce per encryption under one key.
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function decodeKey(text: string, setting: string): Buffer {
  const trimmed = text.trim();
  const key = BASE64.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (key.length !== KEY_BYTES)
    throw new SecretKeyError(`${setting} must be base64 of exactly ${KEY_BYTES} bytes`);
  return key;
}

/**
 * One key setting: `<base64>` or `<id>:<base64>`. A key without an id is named by its fingerprint,
 * so rows it sealed still name the same key after a restart.
 */
function parseKeyEntry(entry: string, setting: string): { id: string; key: Buffer } {
  const colon = entry.indexOf(':');
  const id = colon === -1 ? undefined : entry.slice(0, colon).trim();
  const key = decodeKey(colon === -1 ? entry : entry.slice(colon + 1), setting);
  if (id !== undefined && !KEY_ID.test(id))
    throw new SecretKeyError(`${setting}: a key id must be 1-64 letters, digits, . _ or -`);
  return { id: id ?? `sha256-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`, key };
}

function additionalData(binding: SecretBinding): Buffer {
  return Buffer.from(JSON.stringify([binding.teamId, binding.name]), 'utf8');
}

/**
 * The secret keys: the current one seals, it and the old ones open. AES-256-GCM authenticates
 * every value together with its team and name, so an altered or moved row fails to open.
 */
export class SecretKeyring {
  private readonly keys: ReadonlyMap<string, Buffer>;

  private constructor(
    readonly currentKeyId: string,
    keys: Map<string, Buffer>,
  ) {
    this.keys = keys;
  }

  /**
   * Reads `TOOLGATE_SECRETS_KEY` (`<base64>` or `<id>:<base64>`) and `TOOLGATE_SECRETS_OLD_KEYS`
   * (comma-separated entries of the same form); undefined when no current key is set.
   */
  static fromSettings(settings: {
    current: string | undefined;
    old?: string | undefined;
  }): SecretKeyring | undefined {
    if (settings.current === undefined || settings.current.trim() === '') return undefined;
    const current = parseKeyEntry(settings.current, 'TOOLGATE_SECRETS_KEY');
    const keys = new Map<string, Buffer>([[current.id, current.key]]);
    for (const entry of (settings.old ?? '').split(',')) {
      if (entry.trim() === '') continue;
      const old = parseKeyEntry(entry, 'TOOLGATE_SECRETS_OLD_KEYS');
      const known = keys.get(old.id);
      if (known !== undefined && !known.equals(old.key))
        throw new SecretKeyError(`TOOLGATE_SECRETS_OLD_KEYS: key id ${old.id} is given twice`);
      keys.set(old.id, old.key);
    }
    return new SecretKeyring(current.id, keys);
  }

  /** A new random key as TOOLGATE_SECRETS_KEY takes it. */
  static generateKey(): string {
    return randomBytes(KEY_BYTES).toString('base64');
  }

  /** Whether a value sealed under `keyId` can be opened. */
  has(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  /** Seals a value under the current key with a fresh nonce. */
  seal(value: string, binding: SecretBinding): SealedValue {
    const key = this.keys.get(this.currentKeyId);
    if (key === undefined) throw new SecretKeyError('the current secret key is missing');
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(binding));
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return {
      keyId: this.currentKeyId,
      nonce: nonce.toString('base64'),
      ciphertext: ciphertext.toString('base64'),
      authTag: cipher.getAuthTag().toString('base64'),
    };
  }

  /** Opens a sealed value; throws SecretSealError (naming the secret, never a value) when it cannot. */
  open(sealed: SealedValue, binding: SecretBinding): string {
    const key = this.keys.get(sealed.keyId);
    if (key === undefined)
      throw new SecretSealError(
        `secret ${binding.name} was sealed with key ${sealed.keyId}, which is neither TOOLGATE_SECRETS_KEY nor in TOOLGATE_SECRETS_OLD_KEYS`,
      );
    const nonce = Buffer.from(sealed.nonce, 'base64');
    const authTag = Buffer.from(sealed.authTag, 'base64');
    if (nonce.length !== NONCE_BYTES || authTag.length !== TAG_BYTES)
      throw new SecretSealError(`secret ${binding.name} is stored in an unreadable form`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(binding));
      decipher.setAuthTag(authTag);
      return Buffer.concat([
        decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
        decipher.final(),
      ]).toString('utf8');
    } catch (error) {
      throw new SecretSealError(`secret ${binding.name} failed its integrity check`, {
        cause: error,
      });
    }
  }
}

const blankAsUnset = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** Tells a bad key setting at start, naming the setting (never echoing the key). */
function checkEntries(entries: string[], setting: string, context: z.RefinementCtx): void {
  for (const entry of entries) {
    try {
      parseKeyEntry(entry, setting);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
      return;
    }
  }
}

/** `TOOLGATE_SECRETS_KEY` as the API's and the worker's configs read it: unset, `<base64>` or `<id>:<base64>`. */
export const SecretKeySetting = blankAsUnset.superRefine((value, context) => {
  if (value !== undefined) checkEntries([value], 'TOOLGATE_SECRETS_KEY', context);
});

/** `TOOLGATE_SECRETS_OLD_KEYS`: comma-separated keys of the same form, for opening older values. */
export const SecretOldKeysSetting = blankAsUnset.superRefine((value, context) => {
  if (value === undefined) return;
  const entries = value.split(',').filter((entry) => entry.trim() !== '');
  checkEntries(entries, 'TOOLGATE_SECRETS_OLD_KEYS', context);
});
