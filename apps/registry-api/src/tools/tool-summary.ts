import { isRecord, walkSchema, type ToolIR } from '@toolgate/toolir';
import type { ToolSummary } from './tools.repository';

/** Longest parameter text kept on the tool row per field, like a description's limit. */
export const MAX_SEARCH_FIELD_LENGTH = 16_384;

/**
 * The parameter names and descriptions search indexes: the name of every property at any depth
 * of the parameter schema (nested objects, array items, combinators, $defs) and its description,
 * each once, in the order the schema is walked. The migration 20261204000000_tool_search backfilled existing tools
 * with the same rule in SQL.
 */
export function searchFieldsOf(
  parameters: ToolIR['parameters'],
): Pick<ToolSummary, 'parameterNames' | 'parameterDescriptions'> {
  const names = new Set<string>();
  const descriptions = new Set<string>();
  walkSchema(parameters, (schema) => {
    const properties = schema['properties'];
    if (!isRecord(properties)) return;
    for (const [name, property] of Object.entries(properties)) {
      names.add(name);
      const description = isRecord(property) ? property['description'] : undefined;
      if (typeof description === 'string' && description !== '') descriptions.add(description);
    }
  });
  return {
    parameterNames: [...names].join(' ').slice(0, MAX_SEARCH_FIELD_LENGTH),
    parameterDescriptions: [...descriptions].join(' ').slice(0, MAX_SEARCH_FIELD_LENGTH),
  };
}

/** What the tool row takes from a version that becomes its newest published one. */
export function toolSummaryOf(ir: ToolIR, currentTags: string[]): ToolSummary {
  return {
    description: ir.description,
    tags: ir.tags ?? currentTags,
    ...searchFieldsOf(ir.parameters),
  };
}
