import { safeParseJson } from '../../shared/safe-parse-json';

/** A small seeded PRNG (mulberry32): the same seed gives the same documents on every machine. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks one item at random, with `random` from `createRandom`. */
function picker(random: () => number): <T>(items: readonly T[]) => T {
  return <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
}

/** Random chunk sizes in [min, max], for splitting a document the way a model streams it. */
export function splitRandomly(
  text: string,
  random: () => number,
  sizes: { min: number; max: number },
): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length;) {
    const size = sizes.min + Math.floor(random() * (sizes.max - sizes.min + 1));
    chunks.push(text.slice(index, index + size));
    index += size;
  }
  return chunks;
}

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'query',
  'city',
  'path',
  'limit',
  'note',
  'id',
  'value',
  'x',
  '',
];
// BMP letters, CJK, a combining mark, astral symbols (surrogate pairs), the separators JSON allows raw.
const UNICODE = ['é', 'ß', '中', '文', 'Ж', '\u0301', '😀', '𝄞', '🚀', '\u2028', '€', '~', '/'];
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Options of the random document generator. */
export interface RandomJsonOptions {
  /** Maximum nesting depth. */
  depth: number;
  /** Insert random whitespace between tokens. */
  whitespace: boolean;
}

/**
 * Writes random JSON text with everything the grammar allows: nested containers, every escape form
 * (short, `\uXXXX`, escaped surrogate pairs, escaped `/`), raw unicode incl. astral characters,
 * numbers with signs, fractions and exponents, literals, empty containers, odd keys.
 */
export function randomJsonText(random: () => number, options: RandomJsonOptions): string {
  const pick = picker(random);
  const space = (): string =>
    options.whitespace && random() < 0.3 ? pick([' ', '\n', '\t', '\r\n', '  ']) : '';

  const stringText = (): string => {
    let out = '"';
    const parts = Math.floor(random() * 6);
    for (let part = 0; part < parts; part++) {
      const roll = random();
      if (roll < 0.4) out += pick(WORDS) + (random() < 0.5 ? ' ' : '');
      else if (roll < 0.55) out += pick(Object.values(SHORT_ESCAPES));
      else if (roll < 0.65)
        out += `\\u${Math.floor(random() * 0x20)
          .toString(16)
          .padStart(4, '0')}`;
      else if (roll < 0.72) out += random() < 0.5 ? '\\/' : '/';
      else {
        const character = pick(UNICODE);
        if (random() < 0.35) {
          for (let unit = 0; unit < character.length; unit++) {
            const hex = character.charCodeAt(unit).toString(16).padStart(4, '0');
            out += `\\u${random() < 0.5 ? hex : hex.toUpperCase()}`;
          }
        } else out += character;
      }
    }
    return `${out}"`;
  };

  const numberText = (): string => {
    let out = random() < 0.3 ? '-' : '';
    out += random() < 0.2 ? '0' : String(1 + Math.floor(random() * 99999));
    if (random() < 0.4)
      out += `.${String(Math.floor(random() * 100000)).padStart(1 + Math.floor(random() * 3), '0')}`;
    if (random() < 0.25)
      out += `${pick(['e', 'E'])}${pick(['', '+', '-'])}${Math.floor(random() * 30)}`;
    return out;
  };

  const valueText = (depth: number): string => {
    const roll = random();
    if (depth < options.depth && roll < 0.25) {
      const count = Math.floor(random() * 5);
      const members: string[] = [];
      // Distinct keys: with duplicates JSON.parse keeps the last value, which the consistency checks do not model.
      const keys = new Set<unknown>();
      for (let index = 0; index < count; index++) {
        const key = stringText();
        const decoded = safeParseJson(key);
        if (!decoded.ok) throw new Error(`generated an invalid key: ${key}`);
        if (keys.has(decoded.value)) continue;
        keys.add(decoded.value);
        members.push(`${space()}${key}${space()}:${space()}${valueText(depth + 1)}${space()}`);
      }
      return `{${members.join(',')}${count === 0 ? space() : ''}}`;
    }
    if (depth < options.depth && roll < 0.45) {
      const count = Math.floor(random() * 5);
      const items: string[] = [];
      for (let index = 0; index < count; index++)
        items.push(`${space()}${valueText(depth + 1)}${space()}`);
      return `[${items.join(',')}]`;
    }
    if (roll < 0.7) return stringText();
    if (roll < 0.9) return numberText();
    return pick(['true', 'false', 'null']);
  };

  return `${space()}${valueText(0)}${space()}`;
}

/**
 * A tool-argument-like document of about `size` characters, shaped like a large real call: a few
 * top-level fields and an array of records (nested objects, arrays, escaped and unicode strings,
 * numbers), compact as models write them.
 */
export function argumentDocument(size: number, seed: number): string {
  const random = createRandom(seed);
  const records: string[] = [];
  const head = `{"title":${randomJsonText(random, { depth: 0, whitespace: false })},"options":${randomJsonText(random, { depth: 2, whitespace: false })},"records":[`;
  let length = head.length + 2;
  for (let index = 0; length < size; index++) {
    const fields: string[] = [`"id":${index}`];
    const count = 2 + Math.floor(random() * 5);
    for (let field = 0; field < count; field++) {
      fields.push(`"field_${field}":${randomJsonText(random, { depth: 3, whitespace: false })}`);
    }
    const record = `{${fields.join(',')}}`;
    records.push(record);
    length += record.length + 1;
  }
  return `${head}${records.join(',')}]}`;
}

const PROSE = [
  'the',
  'customer',
  'asked',
  'for',
  'a',
  'refund',
  'because',
  'order',
  'arrived',
  'late',
  'and',
  'damaged',
  'please',
  'update',
  'shipping',
  'address',
  'to',
  'new',
  'warehouse',
  'café',
  'naïve',
  'Grüße',
  'São',
  'Paulo',
  '東京',
  '🚀',
];
const CITIES = ['Berlin', 'Paris', 'São Paulo', '東京', 'Zürich', 'New York'];
const CURRENCIES = ['EUR', 'USD', 'JPY', 'BRL'];

/**
 * A large tool call as models write it (compact, `JSON.stringify` escaping): a bulk update of
 * records with fixed schema keys, ids, prices, flags, tag arrays, nested objects, nulls and prose
 * with the escapes real text needs (`\n`, `\"`, `\\`, `\t`) and raw unicode, astral included.
 * Unlike `argumentDocument`, whose every string is dense with escape forms and whose keys are
 * random, this is what the partial value of a real stream is mostly made of: known keys and text.
 */
export function toolArgumentDocument(size: number, seed: number): string {
  const random = createRandom(seed);
  const pick = picker(random);
  const prose = (words: number): string => {
    let out = '';
    for (let index = 0; index < words; index++) {
      out += (index === 0 ? '' : ' ') + pick(PROSE);
      const roll = random();
      if (roll < 0.04) out += '\n';
      else if (roll < 0.06) out += ' "quoted"';
      else if (roll < 0.07) out += '\tC:\\temp';
    }
    return out;
  };
  const records: unknown[] = [];
  const head = { operation: 'upsert', dry_run: false, reason: prose(12) };
  let length = JSON.stringify(head).length + 14;
  for (let id = 1; length < size; id++) {
    const record = {
      id,
      sku: `SKU-${String(Math.floor(random() * 1e6)).padStart(6, '0')}`,
      name: prose(2 + Math.floor(random() * 4)),
      description: prose(8 + Math.floor(random() * 24)),
      price: { amount: Math.round(random() * 1e6) / 100, currency: pick(CURRENCIES) },
      quantity: Math.floor(random() * 500),
      active: random() < 0.8,
      tags: Array.from({ length: Math.floor(random() * 4) }, () => pick(PROSE)),
      dimensions: [random() * 100, random() * 100, random() * 10].map(
        (value) => Math.round(value * 10) / 10,
      ),
      supplier: {
        name: prose(2),
        city: pick(CITIES),
        contact: random() < 0.5 ? null : { email: `buyer${id}@example.com`, phone: null },
      },
      note: random() < 0.4 ? prose(4 + Math.floor(random() * 10)) : null,
    };
    records.push(record);
    length += JSON.stringify(record).length + 1;
  }
  return JSON.stringify({ ...head, records });
}
