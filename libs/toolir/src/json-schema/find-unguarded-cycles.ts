import type { Issue } from '../errors/toolgate-error';
import { formatJsonPointer, parseJsonPointer } from './json-pointer';
import { SchemaIndex } from './schema-index';
import { childSubschemas, escapePointerToken, walkSchema, type SchemaNode } from './walk-schema';

/** Applicators that apply their subschemas to the same instance location, as a `$ref` does. */
export const IN_PLACE_KEYWORDS: ReadonlySet<string> = new Set([
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
]);

interface Edge {
  to: string;
  /** Where the edge starts in the schema, for the issue's path. */
  at: string;
}

/**
 * Finds `$ref` cycles that never descend into the instance (`{"$ref": "#"}` at the root,
 * `a: {allOf: [{$ref: a}]}`): a validator recurses on them forever. Cycles through `properties`,
 * `items` and other descending keywords are fine and not reported. Unresolvable refs are ignored here.
 */
export function findUnguardedCycles(schema: SchemaNode, basePath = ''): Issue[] {
  if (typeof schema === 'boolean') return [];
  const index = new SchemaIndex(schema);
  const edges = new Map<string, Edge[]>();
  walkSchema(schema, (subschema, location) => {
    const tokens = parseJsonPointer(location.pointer) ?? [];
    const out: Edge[] = [];
    for (const child of childSubschemas(subschema)) {
      if (!IN_PLACE_KEYWORDS.has(child.keyword)) continue;
      const keyword = `${location.pointer}/${escapePointerToken(child.keyword)}`;
      const to = child.key === undefined ? keyword : `${keyword}/${escapePointerToken(child.key)}`;
      out.push({ to, at: to });
    }
    const reference = subschema['$ref'];
    if (typeof reference === 'string') {
      const found = index.lookup(reference, index.baseAt(tokens));
      if (found.ok)
        out.push({ to: formatJsonPointer(found.target.tokens), at: `${location.pointer}/$ref` });
    }
    edges.set(location.pointer, out);
  });

  const issues: Issue[] = [];
  const state = new Map<string, 'active' | 'done'>();
  const visit = (key: string): void => {
    state.set(key, 'active');
    for (const edge of edges.get(key) ?? []) {
      const seen = state.get(edge.to);
      if (seen === 'active') {
        issues.push({
          path: `${basePath}${edge.at}`,
          message: `cycle back to ${edge.to === '' ? '#' : `#${edge.to}`} that never descends into the value: validation could not end`,
        });
      } else if (seen === undefined) {
        visit(edge.to);
      }
    }
    state.set(key, 'done');
  };
  for (const key of edges.keys()) if (!state.has(key)) visit(key);
  return issues;
}
