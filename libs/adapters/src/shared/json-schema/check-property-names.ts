import type { ToolReporter } from '../downgrade-report';
import { isSchemaNode, mapSubschemas, pointer, type SchemaNode } from './schema-node';

/**
 * Reports every property name (at any depth) a provider refuses, naming the key and the rule;
 * the names are sent as they are (the request will be refused until the tool's schema changes).
 */
export function checkPropertyNames(
  schema: SchemaNode,
  reporter: ToolReporter,
  rule: { pattern: RegExp; max: number; text: string },
): void {
  const visit = (node: unknown, path: string): unknown => {
    if (!isSchemaNode(node)) return node;
    const properties = node['properties'];
    if (isSchemaNode(properties)) {
      for (const key of Object.keys(properties)) {
        if (rule.pattern.test(key)) continue;
        reporter.exceeds({
          limit: 'propertyName',
          actual: key.length,
          max: rule.max,
          path: pointer(path, 'properties', key),
          detail: `property "${key}": ${rule.text}`,
        });
      }
    }
    return mapSubschemas(node, path, visit);
  };
  visit(schema, '');
}
