import { isRecord, setOwnProperty, toJsonPointer, upgradeSchemaKeywords } from '@toolgate/toolir';

// Keywords whose value is one subschema.
const SUBSCHEMA_KEYWORDS = new Set([
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
]);
// Keywords whose value is a list of subschemas.
const SUBSCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
// Keywords whose value maps names to subschemas.
const SUBSCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
// OpenAPI vocabulary that means nothing to a JSON Schema validator or a model.
const OPENAPI_ONLY_KEYWORDS = new Set([
  'xml',
  'externalDocs',
  'discriminator',
  'nullable',
  'example',
]);

// A dereferenced schema is no resource of its own any more: an `$id` would only re-base the `$ref`s
// written to the root's `$defs`, and a nested `$schema` is not allowed without one.
const IDENTITY_KEYWORDS = new Set(['$schema', '$id']);

/** Why an OpenAPI schema could not become a self-contained JSON Schema. */
export class OpenApiSchemaError extends Error {
  override readonly name = 'OpenApiSchemaError';
}

/**
 * Turns a dereferenced OpenAPI 3.0/3.1 Schema Object into JSON Schema 2020-12: `nullable` becomes a
 * `null` type, older drafts' keywords (3.0's boolean `exclusiveMinimum`/`exclusiveMaximum`, tuple
 * `items`, `dependencies`, ...) are rewritten by toolir's `upgradeSchemaKeywords`, `example` becomes
 * `examples`, and OpenAPI-only keywords, `x-` extensions, `$schema` and `$id` are dropped. A schema that contains
 * itself (a circular dereferenced object, or 2019-09's `$recursiveRef` to its `$recursiveAnchor`)
 * becomes a `$ref` to an entry of `options.defs`, which the caller puts in the tool's root `$defs`;
 * without `defs` a recursive schema is refused. A `$ref` left by the dereferencer (one it could not
 * resolve) is refused.
 */
export function openApiSchemaToJsonSchema(
  schema: unknown,
  version: '3.0' | '3.1',
  options: SchemaConversionOptions = {},
): unknown {
  return convert(schema, {
    ...options,
    version,
    ancestors: new Set(),
    anchors: [],
    recursive: new Map(),
    at: [],
  });
}

/** Which side of an exchange the schema describes. */
export interface SchemaConversionOptions {
  /**
   * A request's schema: properties marked `readOnly` (set by the server, e.g. an id) are left out
   * and no longer required, and each left out is pushed to `omitted` as a JSON Pointer.
   */
  request?: { omitted: string[] };
  /**
   * Where recursive schemas go: each one that contains itself is written here once, by a name
   * unique in this record, and referred to as `#/$defs/<name>`.
   */
  defs?: Record<string, unknown>;
}

interface ConversionContext extends SchemaConversionOptions {
  version: '3.0' | '3.1';
  /** The schemas above this one, to find a recursion. */
  ancestors: Set<object>;
  /** The schemas above this one that carry `$recursiveAnchor: true`, innermost last. */
  anchors: object[];
  /** The recursive schemas met so far, by their `$defs` name. */
  recursive: Map<object, string>;
  /** Where the schema being converted sits, for `omitted`. */
  at: ReadonlyArray<string | number>;
}

function isReadOnly(schema: unknown): boolean {
  return isRecord(schema) && schema['readOnly'] === true;
}

function convert(schema: unknown, context: ConversionContext): unknown {
  const { version, ancestors } = context;
  if (typeof schema === 'boolean') return schema;
  if (!isRecord(schema)) throw new OpenApiSchemaError('a schema must be an object');
  if (ancestors.has(schema)) return refTo(schema, context, 'the schema is recursive');
  if ('$ref' in schema)
    throw new OpenApiSchemaError('the schema is recursive ($ref left in place)');
  // 2019-09's recursion: `$recursiveRef: "#"` names the innermost schema with `$recursiveAnchor`.
  if ('$recursiveRef' in schema || '$dynamicRef' in schema) {
    const anchor = context.anchors.at(-1);
    if (schema['$recursiveRef'] !== '#' || anchor === undefined)
      throw new OpenApiSchemaError('the schema is recursive ($recursiveRef / $dynamicRef)');
    return refTo(anchor, context, 'the schema is recursive ($recursiveRef / $dynamicRef)');
  }
  ancestors.add(schema);
  const anchored = schema['$recursiveAnchor'] === true;
  if (anchored) context.anchors.push(schema);
  const result: Record<string, unknown> = {};
  // 3.0's boolean exclusive bounds are draft-04's; 3.1 documents mix in other drafts' keywords.
  for (const [key, value] of Object.entries(upgradeSchemaKeywords(schema).schema)) {
    if (key.startsWith('x-') || OPENAPI_ONLY_KEYWORDS.has(key) || IDENTITY_KEYWORDS.has(key))
      continue;
    const at = (...segments: Array<string | number>): ConversionContext => ({
      ...context,
      at: [...context.at, key, ...segments],
    });
    if (SUBSCHEMA_KEYWORDS.has(key) && (isRecord(value) || typeof value === 'boolean')) {
      setOwnProperty(result, key, convert(value, at()));
    } else if (SUBSCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
      setOwnProperty(
        result,
        key,
        value.map((item, index) => convert(item, at(index))),
      );
    } else if (SUBSCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(value)) {
        // What the server sets is not the caller's to send.
        if (key === 'properties' && context.request !== undefined && isReadOnly(item)) {
          context.request.omitted.push(toJsonPointer(at(name).at));
          continue;
        }
        setOwnProperty(map, name, convert(item, at(name)));
      }
      setOwnProperty(result, key, map);
    } else {
      setOwnProperty(result, key, structuredClone(value));
    }
  }
  if (context.request !== undefined && Array.isArray(result['required'])) {
    const properties = isRecord(schema['properties']) ? schema['properties'] : {};
    result['required'] = (result['required'] as unknown[]).filter(
      (name) => typeof name !== 'string' || !isReadOnly(properties[name]),
    );
  }
  if (version === '3.0' && schema['nullable'] === true) addNull(result);
  if ('example' in schema && !('examples' in result))
    result['examples'] = [structuredClone(schema['example'])];
  ancestors.delete(schema);
  if (anchored) context.anchors.pop();
  const name = context.recursive.get(schema);
  if (name === undefined || context.defs === undefined) return result;
  setOwnProperty(context.defs, name, result);
  // The outermost schema stays itself (its properties may become the tool's arguments).
  return context.at.length === 0 ? result : { $ref: `#/$defs/${name}` };
}

/** A `$ref` to a recursive schema's `$defs` entry (named on first use); refused without `defs`. */
function refTo(schema: object, context: ConversionContext, refusal: string): unknown {
  if (context.defs === undefined) throw new OpenApiSchemaError(refusal);
  let name = context.recursive.get(schema);
  if (name === undefined) {
    const title = isRecord(schema) && typeof schema['title'] === 'string' ? schema['title'] : '';
    const base = title.replace(/[^A-Za-z0-9_]/g, '_') || 'recursive';
    name = base;
    for (
      let index = 2;
      Object.hasOwn(context.defs, name) || [...context.recursive.values()].includes(name);
      index += 1
    )
      name = `${base}_${index}`;
    context.recursive.set(schema, name);
  }
  return { $ref: `#/$defs/${name}` };
}

function addNull(result: Record<string, unknown>): void {
  const type: unknown = result['type'];
  if (typeof type === 'string') result['type'] = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null'))
    result['type'] = [...(type as unknown[]), 'null'];
  const values: unknown = result['enum'];
  if (Array.isArray(values) && !values.includes(null))
    result['enum'] = [...(values as unknown[]), null];
}
