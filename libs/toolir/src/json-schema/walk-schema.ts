/** Keywords whose value is one subschema. */
export const SINGLE_SUBSCHEMA_KEYWORDS = [
  'additionalProperties',
  'items',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
] as const;

/** Keywords whose value is an array of subschemas (`items` too, in drafts before 2020-12). */
export const ARRAY_SUBSCHEMA_KEYWORDS = [
  'allOf',
  'anyOf',
  'oneOf',
  'prefixItems',
  'items',
] as const;

/** Keywords whose value maps names to subschemas (`dependencies` entries may also be string arrays). */
export const MAP_SUBSCHEMA_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
] as const;

/** A JSON Schema object or boolean schema. */
export type SchemaNode = Record<string, unknown> | boolean;

/** Where a subschema sits: its JSON Pointer from the root, and the keyword (and key or index) that holds it. */
export interface SubschemaLocation {
  /** JSON Pointer of the subschema from the walked root, '' for the root itself. */
  pointer: string;
  /** The keyword that holds it (`properties`, `items`, ...); undefined for the root. */
  keyword?: string;
  /** The property name or array index under that keyword, for map and array keywords. */
  key?: string;
}

function isSchemaObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || isSchemaObject(value);
}

/** Escapes one JSON Pointer reference token (RFC 6901 §3). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** One direct child subschema of `schema`, with where it sits. */
export interface ChildSubschema {
  node: SchemaNode;
  keyword: string;
  key?: string;
}

/** Lists the direct subschemas of a schema object, in keyword order, skipping values that are not schemas. */
export function childSubschemas(schema: Record<string, unknown>): ChildSubschema[] {
  const children: ChildSubschema[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if ((SINGLE_SUBSCHEMA_KEYWORDS as readonly string[]).includes(keyword) && isSchemaNode(value)) {
      children.push({ node: value, keyword });
    } else if (
      (ARRAY_SUBSCHEMA_KEYWORDS as readonly string[]).includes(keyword) &&
      Array.isArray(value)
    ) {
      value.forEach((item, index) => {
        if (isSchemaNode(item)) children.push({ node: item, keyword, key: String(index) });
      });
    } else if (
      (MAP_SUBSCHEMA_KEYWORDS as readonly string[]).includes(keyword) &&
      isSchemaObject(value)
    ) {
      for (const [key, item] of Object.entries(value)) {
        if (isSchemaNode(item)) children.push({ node: item, keyword, key });
      }
    }
  }
  return children;
}

function childPointer(parent: string, child: ChildSubschema): string {
  const keyword = `${parent}/${escapePointerToken(child.keyword)}`;
  return child.key === undefined ? keyword : `${keyword}/${escapePointerToken(child.key)}`;
}

/**
 * Visits every schema object in a schema, root first (depth-first, pre-order): properties, items,
 * prefixItems, combinators, conditionals, $defs, dependentSchemas and the rest. Boolean schemas are skipped.
 * Return `false` from `visit` to skip the subschemas of the one just visited.
 */
export function walkSchema(
  schema: SchemaNode,
  visit: (subschema: Record<string, unknown>, location: SubschemaLocation) => void | boolean,
): void {
  const visitNode = (node: SchemaNode, location: SubschemaLocation): void => {
    if (!isSchemaObject(node)) return;
    if (visit(node, location) === false) return;
    for (const child of childSubschemas(node)) {
      visitNode(child.node, {
        pointer: childPointer(location.pointer, child),
        keyword: child.keyword,
        ...(child.key === undefined ? {} : { key: child.key }),
      });
    }
  };
  visitNode(schema, { pointer: '' });
}

/**
 * Rebuilds a schema bottom-up: `transform` gets each schema object with its subschemas already
 * transformed and returns its replacement (an object or boolean schema). The input is not changed.
 */
export function mapSchema(
  schema: SchemaNode,
  transform: (subschema: Record<string, unknown>, location: SubschemaLocation) => SchemaNode,
): SchemaNode {
  const mapNode = (node: SchemaNode, location: SubschemaLocation): SchemaNode => {
    if (!isSchemaObject(node)) return node;
    const copy: Record<string, unknown> = { ...node };
    for (const [keyword, value] of Object.entries(node)) {
      const at = (key?: string): SubschemaLocation => ({
        pointer: childPointer(location.pointer, {
          node: true,
          keyword,
          ...(key === undefined ? {} : { key }),
        }),
        keyword,
        ...(key === undefined ? {} : { key }),
      });
      if (
        (SINGLE_SUBSCHEMA_KEYWORDS as readonly string[]).includes(keyword) &&
        isSchemaNode(value)
      ) {
        copy[keyword] = mapNode(value, at());
      } else if (
        (ARRAY_SUBSCHEMA_KEYWORDS as readonly string[]).includes(keyword) &&
        Array.isArray(value)
      ) {
        copy[keyword] = value.map((item: unknown, index) =>
          isSchemaNode(item) ? mapNode(item, at(String(index))) : item,
        );
      } else if (
        (MAP_SUBSCHEMA_KEYWORDS as readonly string[]).includes(keyword) &&
        isSchemaObject(value)
      ) {
        const mapped: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(value)) {
          Object.defineProperty(mapped, key, {
            value: isSchemaNode(item) ? mapNode(item, at(key)) : item,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        copy[keyword] = mapped;
      }
    }
    return transform(copy, location);
  };
  return mapNode(schema, { pointer: '' });
}
