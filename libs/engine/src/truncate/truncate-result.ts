import type { ContentBlock } from '@toolgate/toolir';

/** One place where truncation cut something. */
export interface TruncationCut {
  /** JSON Pointer of the cut array, string or object in the original result. */
  path: string;
  kind: 'array' | 'string' | 'object';
  /** Items, characters or keys before the cut. */
  original_length: number;
  /** Items, characters or keys kept. */
  kept: number;
}

/** What truncation did, so the model (and a person) can tell what is missing. */
export interface TruncationReport {
  original_bytes: number;
  kept_bytes: number;
  budget_bytes: number;
  /** The cuts, up to a limit; `omitted_cuts` counts the rest. */
  cuts: TruncationCut[];
  omitted_cuts: number;
}

/** A value cut to a budget, with the report of what was cut (undefined when nothing was). */
export interface TruncatedValue {
  value: unknown;
  report?: TruncationReport;
}

interface Limits {
  items: number;
  chars: number;
  keys: number;
}

// From gentle to harsh: the first level whose output fits the budget wins, so small overruns lose little.
const LEVELS: readonly Limits[] = [
  { items: 1000, chars: 16_384, keys: Infinity },
  { items: 200, chars: 4096, keys: Infinity },
  { items: 50, chars: 1024, keys: Infinity },
  { items: 20, chars: 512, keys: Infinity },
  { items: 10, chars: 256, keys: Infinity },
  { items: 5, chars: 128, keys: 100 },
  { items: 3, chars: 64, keys: 50 },
  { items: 1, chars: 32, keys: 20 },
  { items: 1, chars: 16, keys: 5 },
  { items: 0, chars: 8, keys: 0 },
];

const MAX_REPORTED_CUTS = 50;

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

function pointerSegment(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

function cutString(text: string, chars: number): string {
  let kept = text.slice(0, chars);
  // Never leave half a surrogate pair behind: it would not survive UTF-8 encoding.
  const last = kept.charCodeAt(kept.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) kept = kept.slice(0, -1);
  return `${kept}…`;
}

function cut(input: {
  value: unknown;
  path: string;
  limits: Limits;
  cuts: TruncationCut[];
}): unknown {
  const { value, path, limits, cuts } = input;
  if (typeof value === 'string') {
    if (value.length <= limits.chars) return value;
    cuts.push({ path, kind: 'string', original_length: value.length, kept: limits.chars });
    return cutString(value, limits.chars);
  }
  if (Array.isArray(value)) {
    const kept = value.slice(0, limits.items);
    if (kept.length < value.length) {
      cuts.push({ path, kind: 'array', original_length: value.length, kept: kept.length });
    }
    return kept.map((item: unknown, index) =>
      cut({ value: item, path: `${path}/${index}`, limits, cuts }),
    );
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const kept = entries.slice(0, limits.keys);
    if (kept.length < entries.length) {
      cuts.push({ path, kind: 'object', original_length: entries.length, kept: kept.length });
    }
    return Object.fromEntries(
      kept.map(([key, item]) => [
        key,
        cut({ value: item, path: `${path}/${pointerSegment(key)}`, limits, cuts }),
      ]),
    );
  }
  return value;
}

/**
 * Cuts a JSON value to a byte budget while keeping its shape: long arrays keep their first items,
 * long strings their beginning, and (only when nothing else helps) large objects their first keys.
 * Values within the budget come back unchanged and without a report.
 */
export function truncateValue(value: unknown, budgetBytes: number): TruncatedValue {
  const originalBytes = byteLength(value);
  if (originalBytes <= budgetBytes) return { value };
  let best: { value: unknown; cuts: TruncationCut[] } | undefined;
  for (const limits of LEVELS) {
    const cuts: TruncationCut[] = [];
    const candidate = cut({ value, path: '', limits, cuts });
    best = { value: candidate, cuts };
    if (byteLength(candidate) <= budgetBytes) break;
  }
  const result = best ?? { value, cuts: [] };
  return {
    value: result.value,
    report: {
      original_bytes: originalBytes,
      kept_bytes: byteLength(result.value),
      budget_bytes: budgetBytes,
      cuts: result.cuts.slice(0, MAX_REPORTED_CUTS),
      omitted_cuts: Math.max(0, result.cuts.length - MAX_REPORTED_CUTS),
    },
  };
}

/** A result's payload cut to a budget: `data` and `content` each get the whole budget. */
export interface TruncatedPayload {
  data?: unknown;
  content?: ContentBlock[];
  /** Present when something was cut; cut paths start with `/data` or `/content`. */
  report?: TruncationReport;
}

function cutToBytes(text: string, bytes: number): string {
  if (bytes <= 0) return '…';
  // Binary search on characters: UTF-8 widths vary, and the kept text must fit the byte budget.
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(cutString(text, middle), 'utf8') <= bytes) low = middle;
    else high = middle - 1;
  }
  return cutString(text, low);
}

/**
 * Cuts content blocks to a byte budget: blocks are kept in order while they fit, the first text block that
 * does not fit is shortened, and the blocks after it are dropped (binary blocks are never cut, only dropped).
 */
function truncateContent(
  blocks: readonly ContentBlock[],
  budgetBytes: number,
): { blocks: ContentBlock[]; cuts: TruncationCut[] } {
  const kept: ContentBlock[] = [];
  const cuts: TruncationCut[] = [];
  let used = 2; // the array's brackets
  for (const [index, block] of blocks.entries()) {
    const size = byteLength(block) + 1;
    if (used + size <= budgetBytes) {
      kept.push(block);
      used += size;
      continue;
    }
    if (block.type === 'text') {
      const overhead = byteLength({ ...block, text: '' }) + 1;
      const text = cutToBytes(block.text, budgetBytes - used - overhead);
      kept.push({ ...block, text });
      cuts.push({
        path: `/content/${index}/text`,
        kind: 'string',
        original_length: block.text.length,
        kept: text.length - 1,
      });
    }
    break;
  }
  if (kept.length < blocks.length) {
    cuts.push({
      path: '/content',
      kind: 'array',
      original_length: blocks.length,
      kept: kept.length,
    });
  }
  return { blocks: kept, cuts };
}

/** Cuts a result's `data` and `content` to a byte budget each, reporting every cut. */
export function truncatePayload(
  payload: { data?: unknown; content?: readonly ContentBlock[] },
  budgetBytes: number,
): TruncatedPayload {
  const data = payload.data === undefined ? undefined : truncateValue(payload.data, budgetBytes);
  const content =
    payload.content === undefined || byteLength(payload.content) <= budgetBytes
      ? undefined
      : truncateContent(payload.content, budgetBytes);
  const out: TruncatedPayload = {
    ...(data === undefined ? {} : { data: data.value }),
    ...(payload.content === undefined ? {} : { content: content?.blocks ?? [...payload.content] }),
  };
  if (data?.report === undefined && content === undefined) return out;
  const cuts = [
    ...(data?.report?.cuts ?? []).map((cut) => ({ ...cut, path: `/data${cut.path}` })),
    ...(content?.cuts ?? []),
  ];
  const original = { data: payload.data, content: payload.content };
  return {
    ...out,
    report: {
      original_bytes: byteLength(original),
      kept_bytes: byteLength({ data: out.data, content: out.content }),
      budget_bytes: budgetBytes,
      cuts: cuts.slice(0, MAX_REPORTED_CUTS),
      omitted_cuts:
        (data?.report?.omitted_cuts ?? 0) + Math.max(0, cuts.length - MAX_REPORTED_CUTS),
    },
  };
}
