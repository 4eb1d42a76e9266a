import { resolveLocalRef } from './resolve-local-ref';
import { isSchemaNode, typeList } from './schema-node';

/** Whether a schema accepts `null` (structurally; `$ref`s resolved against `root`, cycles assumed not to). */
export function acceptsNull(schema: unknown, root: unknown, depth = 0): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isSchemaNode(schema) || depth > 32) return false;
  const ref = schema['$ref'];
  if (typeof ref === 'string' && !acceptsNull(resolveLocalRef(root, ref), root, depth + 1))
    return false;
  const types = typeList(schema);
  if (types.length > 0 && !types.includes('null')) return false;
  if (schema['nullable'] === true && types.length === 0) return true;
  if ('const' in schema && schema['const'] !== null) return false;
  const values = schema['enum'];
  if (Array.isArray(values) && !values.includes(null)) return false;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && !branches.some((branch) => acceptsNull(branch, root, depth + 1)))
      return false;
  }
  const all = schema['allOf'];
  if (Array.isArray(all) && !all.every((branch) => acceptsNull(branch, root, depth + 1)))
    return false;
  return true;
}
