/** How deep a JSON document may nest; deeper ones are refused before anything walks them. */
export const MAX_JSON_DEPTH = 256;

/** Why a JSON text is refused, and where (a JSON Pointer into the document). */
export interface JsonTextProblem {
  pointer: string;
  message: string;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** What Postgres refuses in text and jsonb, and what no tool argument needs: NUL and lone surrogates. */
export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(value)) return 'contains a lone UTF-16 surrogate';
  return undefined;
}

interface Frame {
  kind: 'object' | 'array';
  pointer: string;
  keys: Set<string>;
  index: number;
}

/**
 * Checks a JSON text the way the database and the tools need it, in one pass without recursion:
 * no key twice in one object (JSON.parse would keep the last one silently), no NUL or lone
 * surrogate in any string or key, at most {@link MAX_JSON_DEPTH} levels. Syntax is left to
 * JSON.parse; the first problem found is returned.
 */
export function findJsonTextProblem(text: string): JsonTextProblem | undefined {
  const stack: Frame[] = [];
  // The key just read in the innermost object, waiting for its value.
  let pendingKey: string | undefined;
  let expectKey = false;
  const pointerOfValue = (): string => {
    const frame = stack.at(-1);
    if (frame === undefined) return '';
    if (frame.kind === 'array') return `${frame.pointer}/${frame.index}`;
    return `${frame.pointer}/${escapePointer(pendingKey ?? '')}`;
  };
  for (let position = 0; position < text.length; position += 1) {
    const char = text.charCodeAt(position);
    if (char === 0x22 /* " */) {
      let end = position + 1;
      let escaped = false;
      while (end < text.length) {
        const code = text.charCodeAt(end);
        if (code === 0x5c /* \ */) {
          escaped = true;
          end += 2;
          continue;
        }
        if (code === 0x22) break;
        end += 1;
      }
      const raw = text.slice(position, end + 1);
      let value = raw.slice(1, -1);
      if (escaped) {
        try {
          value = JSON.parse(raw) as string;
        } catch {
          return undefined; // a syntax error: JSON.parse reports it
        }
      }
      const frame = stack.at(-1);
      if (frame?.kind === 'object' && expectKey) {
        const pointer = `${frame.pointer}/${escapePointer(value)}`;
        const problem = textProblem(value);
        if (problem !== undefined) return { pointer, message: `the key ${problem}` };
        if (frame.keys.has(value))
          return { pointer, message: 'this key appears twice in one object' };
        frame.keys.add(value);
        pendingKey = value;
        expectKey = false;
      } else {
        const problem = textProblem(value);
        if (problem !== undefined) return { pointer: pointerOfValue(), message: problem };
      }
      position = end;
      continue;
    }
    if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      if (stack.length >= MAX_JSON_DEPTH) {
        return { pointer: pointerOfValue(), message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
      }
      const pointer = pointerOfValue();
      stack.push({ kind: char === 0x7b ? 'object' : 'array', pointer, keys: new Set(), index: 0 });
      expectKey = char === 0x7b;
      continue;
    }
    if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
      continue;
    }
    if (char === 0x2c /* , */) {
      const frame = stack.at(-1);
      if (frame?.kind === 'array') frame.index += 1;
      else expectKey = true;
    }
  }
  return undefined;
}

/** The first NUL or lone surrogate in a parsed value's strings and keys, walked without recursion. */
export function findValueTextProblem(value: unknown, base = ''): JsonTextProblem | undefined {
  const pending: Array<{ value: unknown; pointer: string; depth: number }> = [
    { value, pointer: base, depth: 0 },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { pointer, depth } = next;
    if (typeof next.value === 'string') {
      const problem = textProblem(next.value);
      if (problem !== undefined) return { pointer, message: problem };
      continue;
    }
    if (next.value === null || typeof next.value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      return { pointer, message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
    }
    if (Array.isArray(next.value)) {
      next.value.forEach((item: unknown, index) =>
        pending.push({ value: item, pointer: `${pointer}/${index}`, depth: depth + 1 }),
      );
      continue;
    }
    for (const [key, item] of Object.entries(next.value as Record<string, unknown>)) {
      const childPointer = `${pointer}/${escapePointer(key)}`;
      const problem = textProblem(key);
      if (problem !== undefined) return { pointer: childPointer, message: `the key ${problem}` };
      pending.push({ value: item, pointer: childPointer, depth: depth + 1 });
    }
  }
  return undefined;
}
