import { IN_PLACE_KEYWORDS, isRecord } from '@toolgate/toolir';
import { resolveLocalRef } from '../shared/json-schema/resolve-local-ref';
import type { JsonSlot } from '../stream/partial-json-parser';

type SchemaNode = Record<string, unknown>;

// Keywords under which whether a property is required, or which values it takes, depends on
// other subschemas or on the data: a repair cannot read the answer off one node, so it decides nothing.
const UNDECIDABLE_KEYWORDS: readonly string[] = [
  ...IN_PLACE_KEYWORDS,
  'dependentRequired',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$recursiveRef',
];

// What may stand beside a `$ref` without changing what it means for a repair.
const REF_SIBLINGS = new Set([
  '$ref',
  'title',
  'description',
  '$comment',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

const MAX_REF_HOPS = 32;

/** A subschema a repair can read: its node after local `$ref`s, and what the chain declares. */
export interface PlainSchema {
  node: SchemaNode;
  /** The first `default` on the `$ref` chain, boxed (a default may be null). */
  default: { value: unknown } | undefined;
  /** An `enum` or `const`: the value is one of a fixed set. */
  isChoice: boolean;
}

/**
 * Follows local `$ref`s to a node a repair can read; undefined when the answer depends on
 * combinators, conditionals or a reference it cannot follow. `true` is the empty schema.
 */
export function plainSchema(root: SchemaNode, schema: unknown): PlainSchema | undefined {
  let current = schema;
  let defaultValue: { value: unknown } | undefined;
  for (let hop = 0; hop <= MAX_REF_HOPS; hop++) {
    if (current === true) return { node: {}, default: defaultValue, isChoice: false };
    if (!isRecord(current)) return undefined;
    if (UNDECIDABLE_KEYWORDS.some((keyword) => Object.hasOwn(current as SchemaNode, keyword)))
      return undefined;
    if (defaultValue === undefined && Object.hasOwn(current, 'default'))
      defaultValue = { value: current['default'] };
    const ref = current['$ref'];
    if (typeof ref !== 'string') {
      const isChoice = Object.hasOwn(current, 'enum') || Object.hasOwn(current, 'const');
      return { node: current, default: defaultValue, isChoice };
    }
    if (Object.keys(current).some((key) => !REF_SIBLINGS.has(key))) return undefined;
    current = resolveLocalRef(root, ref);
  }
  return undefined;
}

/** The property names an object schema requires. */
export function requiredOf(node: SchemaNode): ReadonlySet<string> {
  const required = node['required'];
  return new Set(
    Array.isArray(required) ? required.filter((name) => typeof name === 'string') : [],
  );
}

/**
 * The subschema of a slot in a container whose schema is `parent` (undefined when the parent is
 * unreadable, or a key may match a `patternProperties` pattern).
 */
export function slotSchema(
  root: SchemaNode,
  parent: PlainSchema | undefined,
  slot: JsonSlot,
): PlainSchema | undefined {
  if (parent === undefined) return undefined;
  const node = parent.node;
  if (typeof slot === 'number') {
    const prefix = node['prefixItems'];
    if (Array.isArray(prefix) && slot < prefix.length) return plainSchema(root, prefix[slot]);
    return plainSchema(root, node['items'] ?? true);
  }
  const properties = node['properties'];
  if (isRecord(properties) && Object.hasOwn(properties, slot))
    return plainSchema(root, properties[slot]);
  if (node['patternProperties'] !== undefined) return undefined;
  const additional = node['additionalProperties'];
  return plainSchema(root, additional === undefined || additional === false ? true : additional);
}

/**
 * Whether an array with `count` elements can take no more: `maxItems` reached, or every
 * `prefixItems` slot filled and `items: false`. Then its closing bracket is the only continuation.
 */
export function arrayIsFull(schema: PlainSchema | undefined, count: number): boolean {
  if (schema === undefined) return false;
  const node = schema.node;
  const maxItems = node['maxItems'];
  if (typeof maxItems === 'number' && count >= maxItems) return true;
  const prefix = node['prefixItems'];
  return Array.isArray(prefix) && node['items'] === false && count >= prefix.length;
}
