import type { SchemaNode } from './schema-node';

/**
 * Writes constraints the wire cannot carry into the node's description, in the compact
 * `{key: value, …}` form the official openai-node helper uses, so the model still sees them.
 */
export function appendConstraintsToDescription(
  node: SchemaNode,
  moved: ReadonlyArray<[string, unknown]>,
): SchemaNode {
  if (moved.length === 0) return node;
  const text = `{${moved.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')}}`;
  return { ...node, description: appendSentence(node['description'], text) };
}

/** Appends a sentence to a (possibly absent) description. */
export function appendSentence(description: unknown, sentence: string): string {
  return typeof description === 'string' && description.length > 0
    ? `${description}\n\n${sentence}`
    : sentence;
}
