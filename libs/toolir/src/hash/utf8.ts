const encoder = new TextEncoder();

/** Encodes a string as UTF-8 bytes, the input every hash in this folder works on. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
