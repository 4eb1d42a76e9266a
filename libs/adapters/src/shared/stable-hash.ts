const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/**
 * A deterministic 64-bit FNV-1a hash of a string's UTF-16 code units, as 16 hex digits.
 * Not cryptographic: it names things reproducibly (mangled tool names, synthesized call ids)
 * in every runtime without `node:crypto`; collisions are detected where they matter.
 */
export function stableHash(text: string): string {
  let hash = FNV_OFFSET;
  for (let index = 0; index < text.length; index++) {
    hash ^= BigInt(text.charCodeAt(index));
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
}
