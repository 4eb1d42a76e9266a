import { escapePointerToken } from './walk-schema';

/**
 * Splits a JSON Pointer (RFC 6901) into unescaped reference tokens; '' is the whole document.
 * Returns undefined for text that is not a pointer (non-empty and not starting with '/').
 */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Joins reference tokens into a JSON Pointer, escaping `~` and `/`. */
export function formatJsonPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${escapePointerToken(token)}`).join('');
}

/** A JSON Pointer as a URI fragment (`#/$defs/a%20b`), percent-encoding what a fragment may not hold (RFC 6901 §6). */
export function formatPointerFragment(pointer: string): string {
  return `#${pointer.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/g, (character) => encodeURIComponent(character))}`;
}

/** Follows a JSON Pointer's tokens into a JSON value; undefined when any step is missing. */
export function resolveJsonPointer(document: unknown, tokens: readonly string[]): unknown {
  let current: unknown = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}
