import { setOwnProperty } from '@toolgate/toolir';
import { joinPointer } from '../wire-boundary';

/** A JSON Schema object node (boolean schemas are handled where they can appear). */
export type SchemaNode = Record<string, unknown>;

/** Keywords whose value is one subschema. */
export const SINGLE_SUBSCHEMA_KEYWORDS = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
] as const;

/** Keywords whose value maps names to subschemas. */
export const MAP_SUBSCHEMA_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
] as const;

/** Keywords whose value is a list of subschemas. */
export const LIST_SUBSCHEMA_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

/** The value as a list of unknowns, when it is an array (narrowing without `any`). */
export function listOf(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? (value as unknown[]) : undefined;
}

/** True for a JSON object schema node. */
export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Appends to a pointer: `pointer(base, 'properties', 'x')`. */
export function pointer(base: string, ...segments: Array<string | number>): string {
  return joinPointer(base === '/' ? '' : base, ...segments) || '';
}

/** The `type` keyword as a list (empty when absent). */
export function typeList(node: SchemaNode): string[] {
  const type = node['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((item): item is string => typeof item === 'string');
  return [];
}

/** True when the node describes an object (by `type` or by having `properties`). */
export function isObjectSchema(node: SchemaNode): boolean {
  const types = typeList(node);
  return types.includes('object') || (types.length === 0 && isSchemaNode(node['properties']));
}

/** The JSON type name of a JSON value, as JSON Schema spells it. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The narrowest `type` that covers every value of an enum (or a const); undefined when mixed. */
export function typeOfValues(values: readonly unknown[]): string | undefined {
  const types = new Set(values.filter((value) => value !== null).map(jsonTypeOf));
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  if (types.size !== 1) return undefined;
  return [...types][0];
}

const SUBSCHEMA_KIND = new Map<string, 'single' | 'map' | 'list'>([
  ...SINGLE_SUBSCHEMA_KEYWORDS.map((keyword) => [keyword, 'single'] as const),
  ...MAP_SUBSCHEMA_KEYWORDS.map((keyword) => [keyword, 'map'] as const),
  ...LIST_SUBSCHEMA_KEYWORDS.map((keyword) => [keyword, 'list'] as const),
]);

/**
 * Rebuilds a node with every direct subschema passed through `visit` (which gets the subschema
 * and its pointer); `undefined` from `visit` removes that subschema. One pass over the node's
 * own keys, in their order: this is the hot loop of every conversion.
 */
export function mapSubschemas(
  node: SchemaNode,
  path: string,
  visit: (schema: unknown, path: string) => unknown,
): SchemaNode {
  const result: SchemaNode = {};
  for (const keyword of Object.keys(node)) {
    const value = node[keyword];
    const kind = SUBSCHEMA_KIND.get(keyword);
    if (kind === undefined || value === undefined) {
      setOwnProperty(result, keyword, value);
    } else if (kind === 'single') {
      // Draft-07 tuple form of `items` is a list of schemas.
      const mapped = Array.isArray(value)
        ? value.map((item, index) => visit(item, pointer(path, keyword, index)))
        : visit(value, pointer(path, keyword));
      if (mapped !== undefined) result[keyword] = mapped;
    } else if (kind === 'map') {
      if (!isSchemaNode(value)) {
        result[keyword] = value;
        continue;
      }
      const mapped: SchemaNode = {};
      for (const key of Object.keys(value)) {
        const next = visit(value[key], pointer(path, keyword, key));
        if (next !== undefined) setOwnProperty(mapped, key, next);
      }
      result[keyword] = mapped;
    } else {
      result[keyword] = Array.isArray(value)
        ? value
            .map((item, index) => visit(item, pointer(path, keyword, index)))
            .filter((item) => item !== undefined)
        : value;
    }
  }
  return result;
}
