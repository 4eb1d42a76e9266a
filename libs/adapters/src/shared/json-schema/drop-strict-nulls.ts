import { setOwnProperty } from '@toolgate/toolir';
import { acceptsNull } from './accepts-null';
import { resolveLocalRef } from './resolve-local-ref';
import { isSchemaNode, type SchemaNode } from './schema-node';

function resolve(schema: unknown, root: unknown): SchemaNode | undefined {
  let current = schema;
  for (
    let hops = 0;
    hops < 16 && isSchemaNode(current) && typeof current['$ref'] === 'string';
    hops++
  ) {
    current = resolveLocalRef(root, current['$ref']);
  }
  return isSchemaNode(current) ? current : undefined;
}

/**
 * Undoes OpenAI strict mode's "optional means required-and-nullable": a `null` for a property the
 * ToolIR schema marks optional and non-nullable is removed (provider-rules §2.2 (2)), at any depth
 * of nested objects and arrays. Other values are returned untouched.
 */
export function dropStrictNulls(value: unknown, schema: unknown, root: unknown): unknown {
  const node = resolve(schema, root);
  if (node === undefined) return value;
  if (Array.isArray(value)) {
    const items = node['items'];
    return items === undefined ? value : value.map((item) => dropStrictNulls(item, items, root));
  }
  if (!isSchemaNode(value) || !isSchemaNode(node['properties'])) return value;
  const properties = node['properties'];
  const required = Array.isArray(node['required']) ? node['required'] : [];
  const result: SchemaNode = {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (propertySchema === undefined) {
      setOwnProperty(result, key, item);
    } else if (item === null && !required.includes(key) && !acceptsNull(propertySchema, root)) {
      continue;
    } else {
      setOwnProperty(result, key, dropStrictNulls(item, propertySchema, root));
    }
  }
  return result;
}
