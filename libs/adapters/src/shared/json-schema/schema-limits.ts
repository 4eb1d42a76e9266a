import type { ToolReporter } from '../downgrade-report';
import { isSchemaNode, mapSubschemas, type SchemaNode } from './schema-node';

/** Provider limits on one schema (the values per wire are in PROVIDER_LIMITS). */
export interface SchemaLimits {
  /** Levels of object nesting (older OpenAI docs: 5; current: 10). */
  maxNestingDepth: number;
  /** Object properties in the whole schema (older: 100; current: 5 000). */
  maxProperties: number;
  /** Enum values in the whole schema. */
  maxEnumValues: number;
  /** Characters of property names, enum and const values together. */
  maxSchemaChars: number;
  /** Characters of one string enum with more than 250 values. */
  maxLargeEnumChars: number;
}

/** Measures a schema against the limits and reports each one it exceeds. */
export function checkSchemaLimits(
  schema: SchemaNode,
  reporter: ToolReporter,
  limits: SchemaLimits,
): void {
  let deepest = { depth: 0, path: '' };
  let properties = 0;
  let enumValues = 0;
  let chars = 0;
  let largeEnum = { chars: 0, path: '' };
  const visit = (node: unknown, context: { path: string; depth: number }): unknown => {
    if (!isSchemaNode(node)) return node;
    const isObject = isSchemaNode(node['properties']);
    const depth = context.depth + (isObject ? 1 : 0);
    if (depth > deepest.depth) deepest = { depth, path: context.path };
    if (isObject) {
      const keys = Object.keys(node['properties'] as SchemaNode);
      properties += keys.length;
      chars += keys.reduce((sum, key) => sum + key.length, 0);
    }
    const values = node['enum'];
    if (Array.isArray(values)) {
      enumValues += values.length;
      const text = values.reduce<number>(
        (sum, value) => sum + (typeof value === 'string' ? value.length : 0),
        0,
      );
      chars += text;
      if (values.length > 250 && text > largeEnum.chars)
        largeEnum = { chars: text, path: context.path };
    }
    if (typeof node['const'] === 'string') chars += node['const'].length;
    mapSubschemas(node, context.path, (child, path) => visit(child, { path, depth }));
    return node;
  };
  visit(schema, { path: '', depth: 0 });
  const check = (limit: keyof SchemaLimits, actual: number, path?: string): void => {
    if (actual > limits[limit])
      reporter.exceeds({
        limit,
        actual,
        max: limits[limit],
        ...(path === undefined ? {} : { path: path || '/' }),
      });
  };
  check('maxNestingDepth', deepest.depth, deepest.path);
  check('maxProperties', properties);
  check('maxEnumValues', enumValues);
  check('maxSchemaChars', chars);
  check('maxLargeEnumChars', largeEnum.chars, largeEnum.path);
}
