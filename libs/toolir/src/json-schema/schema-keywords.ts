import { walkSchema, type SchemaNode } from './walk-schema';

/**
 * Lists every keyword used anywhere in a schema (all subschemas, $defs included), sorted,
 * so an adapter can see at once what its provider cannot express and must downgrade.
 * Property names are not keywords and are never listed.
 */
export function schemaKeywords(schema: SchemaNode): string[] {
  const keywords = new Set<string>();
  walkSchema(schema, (subschema) => {
    for (const keyword of Object.keys(subschema)) keywords.add(keyword);
  });
  return [...keywords].sort();
}
