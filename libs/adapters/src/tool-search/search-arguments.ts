import { isRecord } from '@toolgate/toolir';
import { AdapterError } from '../shared/adapter-error';
import { safeParseJson } from '../shared/safe-parse-json';
import type { WireLocation } from '../shared/wire-boundary';

/**
 * A search's arguments as an object: the SDK types them as unknown, and a client search may
 * send them as JSON text like function arguments. Anything that is not an object is refused.
 */
export function searchArguments(value: unknown, location: WireLocation): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (isRecord(value)) return value;
  if (typeof value === 'string') {
    const parsed = safeParseJson(value);
    if (parsed.ok && isRecord(parsed.value)) return parsed.value;
  }
  throw new AdapterError('tool search arguments must be a JSON object', { ...location });
}

/** The search text: `query` (BM25, Responses) or `pattern` (a regex search). */
export function searchQuery(args: Record<string, unknown>): string | null {
  const text = args['query'] ?? args['pattern'];
  return typeof text === 'string' ? text : null;
}
