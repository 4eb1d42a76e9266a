import { z } from 'zod';
import { isRecord, toJsonPointer } from '@toolgate/toolir';
import { AdapterError } from './adapter-error';
import type { Provider } from './provider';

/** Where a payload part sits, for error paths. */
export interface WireLocation {
  provider: Provider;
  /** JSON Pointer of `value` inside the whole payload. */
  path: string;
}

/** Joins a JSON Pointer and more segments, escaping `~` and `/` as RFC 6901 requires. */
export function joinPointer(base: string, ...segments: Array<string | number>): string {
  let result = base === '/' ? '' : base;
  for (const segment of segments) {
    const text = String(segment);
    result += `/${text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text}`;
  }
  return result === '' && base === '/' ? '/' : result;
}

/**
 * Validates an untrusted wire value with a zod schema; a mismatch becomes an AdapterError whose
 * path points at the first offending field, never a TypeError later on.
 */
export function parseWire<TOutput>(
  schema: z.ZodType<TOutput>,
  value: unknown,
  location: WireLocation,
): TOutput {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const base = location.path === '/' ? '' : location.path;
  const issues = parsed.error.issues.map((issue) => {
    const inner = toJsonPointer(issue.path);
    return { path: (inner === '/' ? location.path : base + inner) || '/', message: issue.message };
  });
  const first = issues[0] ?? { path: location.path || '/', message: 'malformed payload' };
  throw new AdapterError(first.message, { provider: location.provider, path: first.path, issues });
}

/**
 * A JSON object, passed through untouched: unlike `z.record`, it keeps a `"__proto__"` key
 * (arguments and schemas are data; a model may well send such a key).
 */
export const JsonObjectSchema = z.custom<Record<string, unknown>>(
  isRecord,
  'expected a JSON object',
);

/** A JSON object schema whose root is `type: 'object'`, passed through untouched. */
export const ObjectRootSchema = JsonObjectSchema.refine(
  (schema) => schema['type'] === 'object',
  'the root must have type "object"',
);

/** Throws the AdapterError for a payload whose overall shape is not one the adapter reads. */
export function unknownShape(location: WireLocation, expected: string): never {
  throw new AdapterError(`expected ${expected}`, {
    provider: location.provider,
    path: location.path,
  });
}
