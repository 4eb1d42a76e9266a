/**
 * Two yardsticks for the partial-JSON benchmark, not parsers anyone should use. They bound what any
 * parser written in JavaScript can reach on a document, so a ratio target can be checked against
 * what is possible at all:
 *
 * - `visitEveryCharacter`: the least an incremental parser must do with 4-16 character chunks: look
 *   at every character once (tracking only strings, escapes and depth) and hand back a result per
 *   chunk. No values are built.
 * - `parseFinishedText`: a plain recursive-descent parser over the finished text, run once: no
 *   chunks, no state to keep between them, no partial values. What building the values in
 *   JavaScript costs when nothing about streaming is in the way.
 */

/** Visits every character of every chunk once; returns the nesting depth after each chunk. */
export function visitEveryCharacter(chunks: readonly string[]): unknown {
  let inString = false;
  let escaped = false;
  let depth = 0;
  let result: { depth: number } = { depth };
  for (const chunk of chunks) {
    const length = chunk.length;
    for (let index = 0; index < length; index++) {
      const code = chunk.charCodeAt(index);
      if (inString) {
        if (escaped) escaped = false;
        else if (code === 92) escaped = true;
        else if (code === 34) inString = false;
      } else if (code === 34) inString = true;
      else if (code === 123 || code === 91) depth++;
      else if (code === 125 || code === 93) depth--;
    }
    result = { depth };
  }
  return result;
}

const SHORT_ESCAPES: Record<number, string> = {
  34: '"',
  92: '\\',
  47: '/',
  98: '\b',
  102: '\f',
  110: '\n',
  114: '\r',
  116: '\t',
};

/** Parses valid JSON text (the benchmark's documents; no error reporting) by recursive descent. */
export function parseFinishedText(text: string): unknown {
  let index = 0;
  const skipSpace = (): void => {
    let code = text.charCodeAt(index);
    while (code === 32 || code === 10 || code === 13 || code === 9) code = text.charCodeAt(++index);
  };
  const parseString = (): string => {
    let out = '';
    let segment = ++index;
    for (;;) {
      const code = text.charCodeAt(index);
      if (code === 34) {
        const value = out + text.slice(segment, index);
        index++;
        return value;
      }
      if (code === 92) {
        out += text.slice(segment, index);
        const escape = text.charCodeAt(index + 1);
        if (escape === 117) {
          out += String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 6), 16));
          index += 6;
        } else {
          out += SHORT_ESCAPES[escape] as string;
          index += 2;
        }
        segment = index;
      } else index++;
    }
  };
  const parseValue = (): unknown => {
    skipSpace();
    const code = text.charCodeAt(index);
    if (code === 123) {
      index++;
      const object: Record<string, unknown> = {};
      skipSpace();
      if (text.charCodeAt(index) === 125) {
        index++;
        return object;
      }
      for (;;) {
        skipSpace();
        const key = parseString();
        skipSpace();
        index++; // ':'
        object[key] = parseValue();
        skipSpace();
        if (text.charCodeAt(index++) === 125) return object;
      }
    }
    if (code === 91) {
      index++;
      const array: unknown[] = [];
      skipSpace();
      if (text.charCodeAt(index) === 93) {
        index++;
        return array;
      }
      for (;;) {
        array.push(parseValue());
        skipSpace();
        if (text.charCodeAt(index++) === 93) return array;
      }
    }
    if (code === 34) return parseString();
    if (code === 116) {
      index += 4;
      return true;
    }
    if (code === 102) {
      index += 5;
      return false;
    }
    if (code === 110) {
      index += 4;
      return null;
    }
    const start = index++;
    for (;;) {
      const next = text.charCodeAt(index);
      if (
        (next >= 48 && next <= 57) ||
        next === 46 ||
        next === 101 ||
        next === 69 ||
        next === 43 ||
        next === 45
      )
        index++;
      else break;
    }
    return Number(text.slice(start, index));
  };
  return parseValue();
}
