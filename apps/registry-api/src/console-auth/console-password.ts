import argon2 from 'argon2';

// argon2id at the library's defaults (64 MiB, t=3, p=4): OWASP's recommended family and cost.
const HASH_OPTIONS = { type: argon2.argon2id } as const;

let decoyHash: Promise<string> | undefined;

/** Hashes a password as an argon2id PHC string (salt and parameters included). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, HASH_OPTIONS);
}

/**
 * Checks a password against a stored hash; with no hash (unknown email) it verifies against a
 * decoy, so an unknown email costs the same time as a wrong password and reveals nothing.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  decoyHash ??= hashPassword('toolgate-decoy-password');
  const target = hash ?? (await decoyHash);
  try {
    const matches = await argon2.verify(target, password);
    return hash !== null && matches;
  } catch {
    // A malformed stored hash is a failed sign-in, never a 500 that tells the caller more.
    return false;
  }
}
