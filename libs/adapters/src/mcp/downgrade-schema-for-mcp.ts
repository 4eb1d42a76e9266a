import { cloneJson, setOwnProperty } from '@toolgate/toolir';
import type { JsonSchema } from '@toolgate/toolir';
import type { ToolReporter } from '../shared/downgrade-report';
import {
  isSchemaNode,
  mapSubschemas,
  pointer,
  type SchemaNode,
} from '../shared/json-schema/schema-node';

/**
 * An `inputSchema`/`outputSchema` for MCP 2025-11-25, whose JSON schema wants every
 * `properties` value to be an object: boolean subschemas become `{}` / `{not: {}}` (same meaning).
 * Any other 2020-12 keyword passes through.
 */
export function downgradeSchemaForMcp(
  schema: JsonSchema,
  reporter: ToolReporter,
): { type: 'object'; [keyword: string]: unknown } {
  return { ...objectifyBooleanProperties(schema, reporter, ''), type: 'object' };
}

function objectifyBooleanProperties(
  schema: JsonSchema,
  reporter: ToolReporter,
  basePath: string,
): SchemaNode {
  const visit = (node: unknown, path: string): unknown => {
    if (!isSchemaNode(node)) return node;
    const mapped = mapSubschemas(node, path, (child, childPath) => visit(child, childPath));
    const properties = mapped['properties'];
    if (isSchemaNode(properties)) {
      for (const [key, value] of Object.entries(properties)) {
        if (typeof value !== 'boolean') continue;
        setOwnProperty(properties, key, value ? {} : { not: {} });
        reporter.note(pointer(path, 'properties', key), 'properties', {
          action: 'rewritten',
          detail: `boolean schema ${String(value)} written as an object`,
        });
      }
    }
    return mapped;
  };
  return visit(cloneJson(schema), basePath) as SchemaNode;
}

/**
 * An `outputSchema` for MCP 2025-11-25: the root must be `type:'object'`, so any other schema is
 * wrapped as `{type:'object', properties:{result: S}, required:['result']}` (as the MCP SDK does).
 */
export function outputSchemaForMcp(
  schema: JsonSchema,
  reporter: ToolReporter,
): { type: 'object'; [keyword: string]: unknown } {
  if (schema['type'] === 'object')
    return { ...objectifyBooleanProperties(schema, reporter, '/outputSchema'), type: 'object' };
  reporter.note('/outputSchema', 'type', {
    action: 'rewritten',
    detail: 'non-object output wrapped as {result: …}',
  });
  return {
    type: 'object',
    properties: { result: objectifyBooleanProperties(schema, reporter, '/outputSchema') },
    required: ['result'],
  };
}
