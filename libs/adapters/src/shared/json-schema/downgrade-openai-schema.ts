import { cloneJson } from '@toolgate/toolir';
import type { JsonSchema } from '@toolgate/toolir';
import type { ToolReporter } from '../downgrade-report';
import { mergeRootComposition } from './merge-root-composition';
import {
  DEFAULT_OPENAI_LIMITS,
  OPENAI_STRICT,
  PROVIDER_LIMITS,
} from '../provider-limits/provider-limits';
import { checkSchemaLimits, type SchemaLimits } from './schema-limits';
import { isSchemaNode, mapSubschemas, pointer, typeList, type SchemaNode } from './schema-node';
import { inferType, toStrictSchema } from './strict-schema';

const RULES = PROVIDER_LIMITS['openai-chat'].schema;

/**
 * The function `parameters` for OpenAI (Chat and Responses alike), by PROVIDER_LIMITS: the root
 * an object with `properties` and none of the keywords OpenAI refuses there; arrays get `items`
 * and untyped subschemas a `type`; with `strict`, the strict-mode rewrite and the (configurable)
 * limits check.
 */
export function downgradeOpenAISchema(
  parameters: JsonSchema,
  reporter: ToolReporter,
  options: { strict: boolean; limits?: Partial<SchemaLimits> | undefined },
): SchemaNode {
  let schema = mergeRootComposition(cloneJson(parameters), reporter);
  for (const keyword of RULES.rootRefuses) {
    if (schema[keyword] === undefined) continue;
    const { [keyword]: _removed, ...rest } = schema;
    schema = rest;
    reporter.note(pointer('', keyword), keyword, {
      action: 'dropped',
      detail: `OpenAI rejects a top-level ${keyword}`,
    });
  }
  if (RULES.rootNeedsProperties && !isSchemaNode(schema['properties']))
    schema = { ...schema, properties: {} };
  if (options.strict) {
    const strict = toStrictSchema(schema, reporter, OPENAI_STRICT);
    checkSchemaLimits(strict, reporter, { ...DEFAULT_OPENAI_LIMITS, ...options.limits });
    return strict;
  }
  return completeSubschemas(schema, '', reporter);
}

// Outside strict mode too, OpenAI refuses an array without `items` ("array schema missing items",
// PrefectHQ/fastmcp#2464) and a subschema without a `type` ("schema must have a 'type' key"): a
// tuple gets any of its members as items, and an untyped subschema the types its keywords imply.
function completeSubschemas(input: SchemaNode, path: string, reporter: ToolReporter): SchemaNode {
  const node =
    RULES.subschemasNeedType && path !== ''
      ? inferType(input, { path, reporter, why: 'OpenAI needs a type on every subschema' })
      : input;
  let result = node;
  if (RULES.arraysNeedItems && typeList(node).includes('array') && node['items'] === undefined) {
    const tuple = Array.isArray(node['prefixItems']);
    result = { ...node, items: tuple ? { anyOf: node['prefixItems'] } : {} };
    reporter.note(pointer(path, 'items'), tuple ? 'prefixItems' : 'items', {
      action: 'rewritten',
      detail: tuple
        ? 'items added as any of the tuple members: extra items are now constrained'
        : 'items added: OpenAI refuses an array without items',
    });
  }
  return mapSubschemas(result, path, (child, childPath) =>
    isSchemaNode(child) ? completeSubschemas(child, childPath, reporter) : child,
  );
}
