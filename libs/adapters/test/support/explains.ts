import type { ErrorObject } from 'ajv';
import type { DowngradeEntry } from '../../src/shared/downgrade-report';

function segments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

// The property names a report path goes through (`/properties/a/items/properties/b` -> [a, b]).
function propertyNames(pointer: string): string[] {
  const parts = segments(pointer);
  return parts.flatMap((part, index) =>
    index > 0 && parts[index - 1] === 'properties' ? [part] : [],
  );
}

function isSubsequence(needle: string[], haystack: string[]): boolean {
  let position = 0;
  for (const item of haystack) if (item === needle[position]) position++;
  return position === needle.length;
}

/**
 * Whether a report entry names the change behind a validation difference: it sits on the path of
 * a failing value (its property names are a subsequence of the value's path), and either its
 * keyword is the one that failed or it is below the root (a rewritten or dropped subschema there).
 */
export function explains(entry: DowngradeEntry, errors: readonly ErrorObject[]): boolean {
  const names = propertyNames(entry.path);
  return errors.some((error) => {
    const params = error.params as { missingProperty?: unknown; additionalProperty?: unknown };
    const instance = segments(error.instancePath).filter((segment) => !/^\d+$/.test(segment));
    const extra = [params.missingProperty, params.additionalProperty].filter(
      (item): item is string => typeof item === 'string',
    );
    if (!isSubsequence(names, [...instance, ...extra])) return false;
    return error.keyword === entry.keyword || names.length > 0;
  });
}
