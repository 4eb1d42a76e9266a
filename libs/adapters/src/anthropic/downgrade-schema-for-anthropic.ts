import { cloneJson } from '@toolgate/toolir';
import type { JsonSchema } from '@toolgate/toolir';
import type { ToolReporter } from '../shared/downgrade-report';
import { mergeRootComposition } from '../shared/json-schema/merge-root-composition';
import { renamePropertiesForWire } from '../shared/names/property-names';
import { resolveLocalRef } from '../shared/json-schema/resolve-local-ref';
import { isSchemaNode, mapSubschemas, type SchemaNode } from '../shared/json-schema/schema-node';
import { toStrictSchema, type StrictProfile } from '../shared/json-schema/strict-schema';
import type { AnthropicInputSchema } from './anthropic-api';

/** What Anthropic strict tools keep (anthropic-sdk `transform-json-schema.ts`); the rest goes to the description. */
export const ANTHROPIC_STRICT_PROFILE: StrictProfile = {
  keep: new Set([
    'type',
    'anyOf',
    'allOf',
    '$ref',
    '$defs',
    'definitions',
    'description',
    'title',
    'properties',
    'required',
    'items',
    'enum',
    'const',
    'minItems',
    'format',
  ]),
  formats: new Set([
    'date-time',
    'time',
    'date',
    'duration',
    'email',
    'hostname',
    'uri',
    'ipv4',
    'ipv6',
    'uuid',
  ]),
  requireAll: false,
};

/**
 * The `input_schema` of an Anthropic tool: top-level `oneOf/anyOf/allOf` merged into the root
 * ("input_schema does not support oneOf, allOf, or anyOf at the top level"); everything else is
 * accepted as is, unless `strict`, which applies the SDK's strict rewrite and flags recursion.
 * Property keys outside Anthropic's pattern are renamed (reported; calls map them back).
 */
export function downgradeSchemaForAnthropic(
  parameters: JsonSchema,
  reporter: ToolReporter,
  options: { strict: boolean },
): AnthropicInputSchema {
  let schema = mergeRootComposition(cloneJson(parameters), reporter);
  if (options.strict) {
    if (isRecursive(schema))
      reporter.exceeds({ limit: 'recursiveSchema', actual: 1, max: 0, path: '/' });
    schema = toStrictSchema(schema, reporter, ANTHROPIC_STRICT_PROFILE);
  }
  // Keys outside ^[a-zA-Z0-9_.-]{1,64}$ are renamed; calls map them back.
  schema = renamePropertiesForWire(schema, 'anthropic', reporter);
  return { ...schema, type: 'object' };
}

// Strict tools reject recursive schemas (documented limit): a $ref reached again while resolving itself.
function isRecursive(root: SchemaNode): boolean {
  const visit = (node: unknown, stack: readonly string[]): boolean => {
    if (!isSchemaNode(node)) return false;
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      if (stack.includes(ref)) return true;
      if (visit(resolveLocalRef(root, ref), [...stack, ref])) return true;
    }
    let found = false;
    mapSubschemas(node, '', (child) => {
      found ||= visit(child, stack);
      return child;
    });
    return found;
  };
  return visit(root, []);
}
