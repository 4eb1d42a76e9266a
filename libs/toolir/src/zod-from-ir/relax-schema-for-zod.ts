import { isRecord } from '../json/is-record';
import { childSubschemas, escapePointerToken, type SchemaNode } from '../json-schema/walk-schema';

/** A keyword zod's form of a schema cannot hold faithfully, so the IR's validator checks it. */
export interface ValidatorCheckedKeyword {
  /** JSON Pointer of the subschema that holds it. */
  pointer: string;
  keyword: string;
  /** Why zod's form differs from the IR validator on it. */
  reason: string;
}

/** A schema `z.fromJSONSchema` converts faithfully or more permissively, and what it left to the validator. */
export interface RelaxedSchema {
  schema: SchemaNode;
  checkedByValidator: ValidatorCheckedKeyword[];
}

/** Keywords that only assert, and so can be dropped to make a schema accept more. */
const DROPPED_ASSERTIONS: Readonly<Record<string, string>> = {
  format: "zod's formats are not ajv-formats' (email, uri, date-time differ at the edges)",
  pattern: 'ajv matches patterns with the `u` flag, zod without it',
  not: 'zod has no negation',
  if: 'zod has no conditionals',
  then: 'zod has no conditionals',
  else: 'zod has no conditionals',
  dependentSchemas: 'zod has no dependent schemas',
  dependentRequired: 'zod has no dependent requirements',
  dependencies: 'zod has no dependent schemas',
  unevaluatedProperties: 'zod has no unevaluated properties',
  unevaluatedItems: 'zod has no unevaluated items',
  patternProperties: 'zod matches property patterns without the `u` flag',
};

/** Annotations that change what `z.fromJSONSchema` builds although no validator reads them. */
const DROPPED_ANNOTATIONS = ['readOnly', 'writeOnly', '$comment'];

/** Keywords that assert only on one type: zod ignores them on a schema without `type`. */
const TYPED_ASSERTIONS = new Set([
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);

const DEFINITION_KEYWORDS = ['$defs', 'definitions'];

/** Combinators under which Ajv never applies defaults (its "composite rule"). */
const COMPOSITE_KEYWORDS = new Set(['anyOf', 'oneOf', 'not', 'if', 'then', 'else']);

interface Walk {
  checked: ValidatorCheckedKeyword[];
  /** Inside a combinator whose defaults Ajv ignores. */
  composite: boolean;
  /** Ajv applies this subschema's own `default`: it is a property's (or a tuple item's) schema. */
  defaultApplies: boolean;
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function typesOf(schema: Record<string, unknown>): string[] {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

/** Whether every integer the schema allows is a safe integer, the only integers zod's `int()` takes. */
function boundedToSafeIntegers(schema: Record<string, unknown>): boolean {
  const low = schema['minimum'] ?? schema['exclusiveMinimum'];
  const high = schema['maximum'] ?? schema['exclusiveMaximum'];
  return (
    typeof low === 'number' &&
    typeof high === 'number' &&
    low >= Number.MIN_SAFE_INTEGER &&
    high <= Number.MAX_SAFE_INTEGER
  );
}

/** A local reference `z.fromJSONSchema` resolves: the root, or one entry of the root's `$defs`. */
function isResolvableRef(ref: unknown): boolean {
  return typeof ref === 'string' && (ref === '#' || /^#\/\$defs\/[^/]+$/.test(ref));
}

function relaxObject(
  source: Record<string, unknown>,
  pointer: string,
  walk: Walk,
): { schema: SchemaNode; changed: boolean } {
  const schema: Record<string, unknown> = { ...source };
  const check = (keyword: string, reason: string): void => {
    walk.checked.push({ pointer, keyword, reason });
  };
  let changed = false;

  if (schema['$ref'] !== undefined && !isResolvableRef(schema['$ref'])) {
    check('$ref', 'zod resolves only `#` and `#/$defs/<name>`');
    return { schema: {}, changed: true };
  }
  if (schema['nullable'] !== undefined) {
    // Ajv reads OpenAPI's `nullable` beside `type`; zod ignores it, which would refuse null.
    check('nullable', 'zod ignores OpenAPI `nullable` in draft 2020-12');
    return { schema: {}, changed: true };
  }

  for (const keyword of DROPPED_ANNOTATIONS) delete schema[keyword];
  if ((walk.composite || !walk.defaultApplies) && 'default' in schema) {
    // Ajv fills in only a property's or tuple item's default, and none under anyOf/oneOf/not/if;
    // zod would fill in the rest.
    delete schema['default'];
  }
  if ('default' in schema && !isPrimitive(schema['default'])) {
    // zod hands out a default as it is; Ajv fills the defaults of its properties in as well.
    check('default', 'zod does not fill in the defaults inside a default value');
  }
  for (const [keyword, reason] of Object.entries(DROPPED_ASSERTIONS)) {
    if (!(keyword in schema)) continue;
    if (keyword === 'not' && isRecord(schema['not']) && Object.keys(schema['not']).length === 0)
      continue;
    delete schema[keyword];
    check(keyword, reason);
    changed = true;
    // Without its patterns, `additionalProperties: false` would refuse the keys they allowed.
    if (keyword === 'patternProperties' && 'additionalProperties' in schema) {
      delete schema['additionalProperties'];
      check('additionalProperties', 'it depends on patternProperties');
    }
  }
  for (const keyword of ['enum', 'const'] as const) {
    const value = schema[keyword];
    const values = keyword === 'enum' && Array.isArray(value) ? value : [value];
    if (keyword in schema && !values.every(isPrimitive)) {
      delete schema[keyword];
      check(keyword, 'zod compares literals by identity, not as JSON values');
      changed = true;
    }
  }
  if (typeof schema['multipleOf'] === 'number' && !Number.isInteger(schema['multipleOf'])) {
    delete schema['multipleOf'];
    check('multipleOf', 'ajv and zod round a fractional multipleOf differently');
    changed = true;
  }
  const types = typesOf(schema);
  if (types.includes('integer') && !boundedToSafeIntegers(schema)) {
    schema['type'] = Array.isArray(schema['type'])
      ? types.map((type) => (type === 'integer' ? 'number' : type))
      : 'number';
    check('type', 'zod takes only safe integers, ajv any whole number');
    changed = true;
  }
  const typeless =
    types.length === 0 && schema['enum'] === undefined && schema['const'] === undefined;
  if (typeless && schema['$ref'] === undefined) {
    const ignored = Object.keys(schema).filter((keyword) => TYPED_ASSERTIONS.has(keyword));
    for (const keyword of ignored) {
      delete schema[keyword];
      check(keyword, 'zod ignores it on a schema without `type`');
      changed = true;
    }
  }
  if (schema['$ref'] !== undefined) {
    // zod reads the target alone: siblings other than annotations are lost.
    for (const keyword of Object.keys(schema)) {
      if (['$ref', 'description', 'default', 'title', 'examples', 'deprecated'].includes(keyword))
        continue;
      if (['anyOf', 'allOf', 'oneOf'].includes(keyword)) continue;
      delete schema[keyword];
      check(keyword, 'zod ignores the siblings of `$ref`');
      changed = true;
    }
  }

  const childChanged = new Map<string, boolean>();
  for (const child of childSubschemas(schema)) {
    const childPointer = `${pointer}/${escapePointerToken(child.keyword)}${child.key === undefined ? '' : `/${escapePointerToken(child.key)}`}`;
    const relaxed = relaxNode(child.node, childPointer, {
      checked: walk.checked,
      composite: walk.composite || COMPOSITE_KEYWORDS.has(child.keyword),
      defaultApplies: child.keyword === 'properties' || child.keyword === 'prefixItems',
    });
    place(
      { schema, keyword: child.keyword, ...(child.key === undefined ? {} : { key: child.key }) },
      relaxed.schema,
    );
    if (relaxed.changed) {
      childChanged.set(child.keyword, true);
      changed = true;
    }
  }
  // A branch that accepts more can make two branches match: only anyOf stays more permissive.
  if (childChanged.get('oneOf') === true) {
    const branches = schema['oneOf'];
    delete schema['oneOf'];
    if (schema['anyOf'] === undefined) schema['anyOf'] = branches;
    else
      schema['allOf'] = [
        ...(Array.isArray(schema['allOf']) ? (schema['allOf'] as unknown[]) : []),
        { anyOf: branches },
      ];
    check('oneOf', 'a branch was relaxed, so exactly-one cannot be judged by zod');
  }
  // More items matching `contains` can break maxContains.
  if (childChanged.get('contains') === true && 'maxContains' in schema) {
    delete schema['maxContains'];
    check('maxContains', 'its `contains` was relaxed');
  }
  return { schema, changed };
}

function place(
  { schema, keyword, key }: { schema: Record<string, unknown>; keyword: string; key?: string },
  node: SchemaNode,
): void {
  if (key === undefined) {
    schema[keyword] = node;
    return;
  }
  const holder = schema[keyword];
  if (Array.isArray(holder)) {
    const copy: unknown[] = [...(holder as unknown[])];
    copy[Number(key)] = node;
    schema[keyword] = copy;
  } else if (isRecord(holder)) {
    const copy: Record<string, unknown> = { ...holder };
    Object.defineProperty(copy, key, {
      value: node,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    schema[keyword] = copy;
  }
}

function relaxNode(
  node: SchemaNode,
  pointer: string,
  walk: Walk,
): { schema: SchemaNode; changed: boolean } {
  return isRecord(node) ? relaxObject(node, pointer, walk) : { schema: node, changed: false };
}

/**
 * Rewrites a parameters schema into one `z.fromJSONSchema` converts without refusing anything the
 * IR's validator (Ajv, draft 2020-12) accepts: every keyword zod would read differently is
 * dropped or widened and listed in `checkedByValidator`, and defaults Ajv would not apply are
 * dropped. With an empty list zod's form is faithful on its own; otherwise the caller runs the
 * IR's validator first, so the pair accepts exactly what Ajv accepts.
 */
export function relaxSchemaForZod(schema: SchemaNode): RelaxedSchema {
  const checked: ValidatorCheckedKeyword[] = [];
  const relaxed = relaxNode(schema, '', { checked, composite: false, defaultApplies: false });
  // A reference to a relaxed definition relaxes every place that uses it.
  const definitionsChanged = checked.some((entry) =>
    DEFINITION_KEYWORDS.some((keyword) => entry.pointer.startsWith(`/${keyword}/`)),
  );
  if (definitionsChanged && !checked.some((entry) => entry.keyword === '$ref')) {
    checked.push({ pointer: '', keyword: '$ref', reason: 'a referenced definition was relaxed' });
  }
  return { schema: relaxed.schema, checkedByValidator: checked };
}
