import { cloneJson } from '@toolgate/toolir';
import type { JsonSchema } from '@toolgate/toolir';
import type { ToolReporter } from '../downgrade-report';
import { mergeRootComposition } from './merge-root-composition';
import { checkSchemaLimits, DEFAULT_OPENAI_LIMITS, type SchemaLimits } from './schema-limits';
import { isSchemaNode, mapSubschemas, pointer, typeList, type SchemaNode } from './schema-node';
import { toStrictSchema, type StrictProfile } from './strict-schema';

/** What OpenAI strict mode keeps (openai-node `transform-json-schema.ts`); everything else goes to the description. */
export const OPENAI_STRICT_PROFILE: StrictProfile = {
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
    'ipv4',
    'ipv6',
    'uuid',
  ]),
  requireAll: true,
};

/**
 * The function `parameters` for OpenAI (Chat and Responses alike): the root must be an object
 * with `properties` and without `oneOf/anyOf/allOf/enum/not`; tuple arrays get `items`; with
 * `strict`, the strict-mode rewrite and the (configurable) limits check.
 */
export function downgradeOpenAISchema(
  parameters: JsonSchema,
  reporter: ToolReporter,
  options: { strict: boolean; limits?: Partial<SchemaLimits> | undefined },
): SchemaNode {
  let schema = mergeRootComposition(cloneJson(parameters), reporter);
  for (const keyword of ['enum', 'not'] as const) {
    if (schema[keyword] === undefined) continue;
    const { [keyword]: _removed, ...rest } = schema;
    schema = rest;
    reporter.note(pointer('', keyword), keyword, {
      action: 'dropped',
      detail: `OpenAI rejects a top-level ${keyword}`,
    });
  }
  if (!isSchemaNode(schema['properties'])) schema = { ...schema, properties: {} };
  if (options.strict) {
    const strict = toStrictSchema(schema, reporter, OPENAI_STRICT_PROFILE);
    checkSchemaLimits(strict, reporter, { ...DEFAULT_OPENAI_LIMITS, ...options.limits });
    return strict;
  }
  return giveArraysItems(schema, '', reporter);
}

// "array schema missing items" (PrefectHQ/fastmcp#2464): OpenAI refuses an array schema without
// `items`, even outside strict mode; a tuple gets any of its members, any other array any value.
function giveArraysItems(node: SchemaNode, path: string, reporter: ToolReporter): SchemaNode {
  let result = node;
  if (typeList(node).includes('array') && node['items'] === undefined) {
    const tuple = Array.isArray(node['prefixItems']);
    result = { ...node, items: tuple ? { anyOf: node['prefixItems'] } : {} };
    reporter.note(pointer(path, 'items'), tuple ? 'prefixItems' : 'items', {
      action: 'rewritten',
      detail: tuple
        ? 'items added as any of the tuple members: extra items are now constrained'
        : 'items added, allowing any value: OpenAI refuses an array without items',
    });
  }
  return mapSubschemas(result, path, (child, childPath) =>
    isSchemaNode(child) ? giveArraysItems(child, childPath, reporter) : child,
  );
}

/** OpenAI's longest function description ("string too long ... maximum length 1024"). */
export const OPENAI_MAX_DESCRIPTION_LENGTH = 1024;

/** A tool's description as OpenAI takes it: cut to its limit, with the cut reported. */
export function openAIDescription(description: string, reporter: ToolReporter): string {
  if (description.length <= OPENAI_MAX_DESCRIPTION_LENGTH) return description;
  reporter.note('/description', 'description', {
    action: 'rewritten',
    detail: `cut from ${description.length} to ${OPENAI_MAX_DESCRIPTION_LENGTH} characters, OpenAI's limit`,
  });
  return `${description.slice(0, OPENAI_MAX_DESCRIPTION_LENGTH - 1)}…`;
}
