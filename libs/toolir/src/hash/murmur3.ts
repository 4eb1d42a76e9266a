import { utf8 } from './utf8';

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/**
 * MurmurHash3 (x86, 32-bit) of the UTF-8 bytes of `text`, as an unsigned integer.
 * Pure JS so it gives the same answer in Node, browsers and edge runtimes; not for security.
 */
export function murmur3(text: string, seed = 0): number {
  const bytes = utf8(text);
  const blockEnd = bytes.length - (bytes.length % 4);
  let hash = seed >>> 0;
  for (let index = 0; index < blockEnd; index += 4) {
    let block =
      (bytes[index] ?? 0) |
      ((bytes[index + 1] ?? 0) << 8) |
      ((bytes[index + 2] ?? 0) << 16) |
      ((bytes[index + 3] ?? 0) << 24);
    block = Math.imul(block, C1);
    block = (block << 15) | (block >>> 17);
    block = Math.imul(block, C2);
    hash ^= block;
    hash = (hash << 13) | (hash >>> 19);
    hash = (Math.imul(hash, 5) + 0xe6546b64) | 0;
  }
  const remaining = bytes.length & 3;
  if (remaining > 0) {
    // The 1-3 trailing bytes, little-endian, as MurmurHash3's tail switch reads them.
    let tail = 0;
    for (let offset = remaining - 1; offset >= 0; offset -= 1)
      tail = (tail << 8) | (bytes[blockEnd + offset] ?? 0);
    tail = Math.imul(tail, C1);
    tail = (tail << 15) | (tail >>> 17);
    tail = Math.imul(tail, C2);
    hash ^= tail;
  }
  hash ^= bytes.length;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
