import { isSchemaNode } from './schema-node';

/** Unescapes one JSON Pointer segment (RFC 6901: `~1` is `/`, `~0` is `~`). */
function unescapeSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Resolves a same-document `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any `#/json/pointer`)
 * against the root schema; network and anchor refs give `undefined` (MCP: clients MUST NOT
 * auto-dereference network `$ref`s).
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const segment of ref.slice(2).split('/').map(unescapeSegment)) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isSchemaNode(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** The definition name a ref points at, for messages (`#/$defs/Node` -> `Node`). */
export function refName(ref: string): string {
  return ref === '#' ? '(root)' : (ref.split('/').pop() ?? ref);
}
