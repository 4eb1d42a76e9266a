import { setOwnProperty } from '@toolgate/toolir';
import type { ToolReporter } from '../downgrade-report';
import { appendSentence } from './describe-constraints';
import { resolveLocalRef } from './resolve-local-ref';
import { isSchemaNode, type SchemaNode } from './schema-node';

const COMPOSITION_KEYWORDS = ['allOf', 'anyOf', 'oneOf'] as const;

/** The composition keywords that can be merged into an object. */
export type CompositionKeyword = (typeof COMPOSITION_KEYWORDS)[number];

/**
 * Removes `oneOf`/`anyOf`/`allOf` from the root, which OpenAI and Anthropic reject
 * ("input_schema does not support oneOf, allOf, or anyOf at the top level"): the branches'
 * properties are merged into the root, `required` becomes what every branch requires (all of
 * them for `allOf`), and the description says which combinations are meant. Reported as `rewritten`.
 */
export function mergeRootComposition(root: SchemaNode, reporter: ToolReporter): SchemaNode {
  return mergeObjectComposition(root, { root, path: '', reporter });
}

/** True when every branch of the node's compositions describes an object (or only adds `required`). */
export function hasObjectComposition(
  node: SchemaNode,
  root: SchemaNode,
  keywords: readonly CompositionKeyword[] = COMPOSITION_KEYWORDS,
): boolean {
  const branches = keywords.flatMap((keyword) =>
    Array.isArray(node[keyword]) ? (node[keyword] as unknown[]) : [],
  );
  if (branches.length === 0) return false;
  return branches.every((branch) => {
    const member =
      isSchemaNode(branch) && typeof branch['$ref'] === 'string'
        ? resolveLocalRef(root, branch['$ref'])
        : branch;
    if (!isSchemaNode(member)) return false;
    const type = member['type'];
    return (
      (type === undefined || type === 'object') &&
      (isSchemaNode(member['properties']) || Array.isArray(member['required']) || type === 'object')
    );
  });
}

/** The same merge at any object node (`path` is the node's pointer, `root` resolves `$ref` branches). */
export function mergeObjectComposition(
  node: SchemaNode,
  context: {
    root: SchemaNode;
    path: string;
    reporter: ToolReporter;
    keywords?: readonly CompositionKeyword[];
  },
): SchemaNode {
  const { root, reporter } = context;
  let result: SchemaNode = node;
  for (const keyword of context.keywords ?? COMPOSITION_KEYWORDS) {
    const branches = result[keyword];
    if (!Array.isArray(branches)) continue;
    const { [keyword]: _removed, ...rest } = result;
    const members = branches
      .map((branch: unknown) =>
        isSchemaNode(branch) && typeof branch['$ref'] === 'string'
          ? resolveLocalRef(root, branch['$ref'])
          : branch,
      )
      .filter(isSchemaNode);
    const properties: SchemaNode = isSchemaNode(rest['properties'])
      ? { ...rest['properties'] }
      : {};
    for (const member of members) {
      if (!isSchemaNode(member['properties'])) continue;
      for (const [key, schema] of Object.entries(member['properties'])) {
        const existing = Object.hasOwn(properties, key) ? properties[key] : undefined;
        setOwnProperty(
          properties,
          key,
          existing === undefined || JSON.stringify(existing) === JSON.stringify(schema)
            ? schema
            : { anyOf: [existing, schema] },
        );
      }
    }
    const requiredOf = (member: SchemaNode): string[] =>
      Array.isArray(member['required'])
        ? member['required'].filter((item): item is string => typeof item === 'string')
        : [];
    const ownRequired = requiredOf(rest);
    const branchRequired =
      keyword === 'allOf'
        ? members.flatMap(requiredOf)
        : members.length === 0
          ? []
          : requiredOf(members[0] ?? {}).filter((key) =>
              members.every((member) => requiredOf(member).includes(key)),
            );
    const required = [...new Set([...ownRequired, ...branchRequired])];
    const shapes = members.map((member, index) => {
      const keys = isSchemaNode(member['properties']) ? Object.keys(member['properties']) : [];
      const needed = requiredOf(member);
      return `(${index + 1}) ${keys.join(', ') || 'no fields'}${needed.length > 0 ? ` [required: ${needed.join(', ')}]` : ''}`;
    });
    const lead =
      keyword === 'oneOf'
        ? 'Provide exactly one of these shapes'
        : keyword === 'anyOf'
          ? 'Provide at least one of these shapes'
          : 'All of these apply';
    result = {
      ...rest,
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      ...(keyword === 'allOf'
        ? {}
        : { description: appendSentence(rest['description'], `${lead}: ${shapes.join('; ')}.`) }),
    };
    if (required.length === 0) delete result['required'];
    reporter.note(context.path + '/' + keyword, keyword, {
      action: keyword === 'allOf' ? 'rewritten' : 'moved_to_description',
      detail: `top-level ${keyword} merged into the root object`,
    });
  }
  return result;
}
