import { isRecord, setOwnProperty } from '@toolgate/toolir';

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

/** Why an OpenAPI schema could not become a self-contained JSON Schema. */
export class OpenApiSchemaError extends Error {
  override readonly name = 'OpenApiSchemaError';
}

/**
 * Turns a dereferenced OpenAPI 3.0/3.1 Schema Object into JSON Schema 2020-12: `nullable` becomes a
 * `null` type, 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, `example` becomes
 * `examples`, and OpenAPI-only keywords and `x-` extensions are dropped. A `$ref` left by the
 * dereferencer marks a recursive schema, which a tool's standalone schema cannot express here.
 */
export function openApiSchemaToJsonSchema(schema: unknown, version: '3.0' | '3.1'): unknown {
  return convert(schema, version, new Set());
}

function convert(schema: unknown, version: '3.0' | '3.1', ancestors: Set<object>): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isRecord(schema)) throw new OpenApiSchemaError('a schema must be an object');
  if (ancestors.has(schema)) throw new OpenApiSchemaError('the schema is recursive');
  if ('$ref' in schema)
    throw new OpenApiSchemaError('the schema is recursive ($ref left in place)');
  ancestors.add(schema);
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || OPENAPI_ONLY_KEYWORDS.has(key)) continue;
    if (SUBSCHEMA_KEYWORDS.has(key) && (isRecord(value) || typeof value === 'boolean')) {
      setOwnProperty(result, key, convert(value, version, ancestors));
    } else if (SUBSCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
      setOwnProperty(
        result,
        key,
        value.map((item) => convert(item, version, ancestors)),
      );
    } else if (SUBSCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(value)) {
        setOwnProperty(map, name, convert(item, version, ancestors));
      }
      setOwnProperty(result, key, map);
    } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
      if (typeof value === 'number') setOwnProperty(result, key, value);
      // 3.0: `exclusiveMaximum: true` qualifies `maximum`.
      else if (value === true) {
        const bound = schema[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
        if (typeof bound === 'number') setOwnProperty(result, key, bound);
      }
    } else {
      setOwnProperty(result, key, structuredClone(value));
    }
  }
  if (typeof schema['exclusiveMinimum'] === 'boolean' && schema['exclusiveMinimum'])
    delete result['minimum'];
  if (typeof schema['exclusiveMaximum'] === 'boolean' && schema['exclusiveMaximum'])
    delete result['maximum'];
  if (version === '3.0' && schema['nullable'] === true) addNull(result);
  if ('example' in schema && !('examples' in result))
    result['examples'] = [structuredClone(schema['example'])];
  ancestors.delete(schema);
  return result;
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
