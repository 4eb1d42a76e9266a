import { sha1 } from './sha1';
import { utf8 } from './utf8';

/** The namespace of Toolgate tool ids: itself `uuidV5(NAMESPACE_URL, 'https://toolgate.dev/ns/tool')`. */
export const TOOL_ID_NAMESPACE = 'b17bee19-ec49-5f8a-9a72-1540873a9533';

/** The RFC 9562 URL namespace, for deriving further namespaces. */
export const NAMESPACE_URL = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

function uuidToBytes(uuid: string): Uint8Array {
  const hex = uuid.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new TypeError(`not a UUID: ${uuid}`);
  const bytes = new Uint8Array(16);
  for (let index = 0; index < 16; index += 1)
    bytes[index] = parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

function bytesToUuid(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A name-based UUID, version 5 (RFC 9562 §5.5): SHA-1 of namespace bytes + UTF-8 name,
 * so the same (namespace, name) gives the same id on every machine, forever.
 */
export function uuidV5(namespace: string, name: string): string {
  const namespaceBytes = uuidToBytes(namespace);
  const nameBytes = utf8(name);
  const input = new Uint8Array(namespaceBytes.length + nameBytes.length);
  input.set(namespaceBytes);
  input.set(nameBytes, namespaceBytes.length);
  const bytes = sha1(input).slice(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return bytesToUuid(bytes);
}
