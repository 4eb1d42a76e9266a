import { isRecord } from '@toolgate/toolir';
import type { Provider } from '../provider';

/** One schema of a wire tool and the JSON Pointer of its field in that tool. */
export interface WireSchemaField {
  path: string;
  schema: unknown;
  /** Gemini's `parametersJsonSchema` follows plain JSON Schema, not the `parameters` subset. */
  jsonSchema?: boolean;
}

/** The parts of one wire tool definition that a provider limits, whatever the wire's shape. */
export interface WireToolView {
  name: unknown;
  description: unknown;
  /** Where the description sits in the tool. */
  descriptionPath: string;
  schemas: WireSchemaField[];
  strict: boolean;
  cached: boolean;
}

/** The function tools among `definitions`, read as views; the provider's own tools are left out. */
export function wireToolViews(provider: Provider, definitions: readonly unknown[]): WireToolView[] {
  return definitions
    .map((definition) => wireToolView(provider, definition))
    .filter((view) => view !== undefined);
}

function field(record: Record<string, unknown>, key: string, path: string): WireSchemaField[] {
  return record[key] === undefined ? [] : [{ path, schema: record[key] }];
}

/**
 * Reads a function tool definition of `provider`'s wire; `undefined` for what is not one (a
 * provider's own tool such as Responses `tool_search` or Anthropic's BM25 search tool).
 */
export function wireToolView(provider: Provider, definition: unknown): WireToolView | undefined {
  if (!isRecord(definition)) return undefined;
  const base = {
    name: definition['name'],
    description: definition['description'],
    descriptionPath: '/description',
    strict: definition['strict'] === true,
    cached: definition['cache_control'] !== undefined,
  };
  switch (provider) {
    case 'openai-chat': {
      const custom = definition['custom'];
      if (definition['type'] === 'custom' && isRecord(custom)) {
        // A free-text tool has no schema: only its name and description are limited.
        return {
          ...base,
          name: custom['name'],
          description: custom['description'],
          descriptionPath: '/custom/description',
          schemas: [],
        };
      }
      const fn = definition['function'];
      if (definition['type'] !== 'function' || !isRecord(fn)) return undefined;
      return {
        ...base,
        name: fn['name'],
        description: fn['description'],
        descriptionPath: '/function/description',
        strict: fn['strict'] === true,
        schemas: field(fn, 'parameters', '/function/parameters'),
      };
    }
    case 'openai-responses':
      if (definition['type'] === 'custom') return { ...base, schemas: [] };
      if (definition['type'] !== 'function') return undefined;
      return { ...base, schemas: field(definition, 'parameters', '/parameters') };
    case 'anthropic':
      if (definition['type'] !== undefined && definition['type'] !== 'custom') return undefined;
      return { ...base, schemas: field(definition, 'input_schema', '/input_schema') };
    case 'gemini':
      return {
        ...base,
        schemas: [
          ...field(definition, 'parameters', '/parameters'),
          ...field(definition, 'parametersJsonSchema', '/parametersJsonSchema').map((schema) => ({
            ...schema,
            jsonSchema: true,
          })),
        ],
      };
    case 'mcp':
      return {
        ...base,
        schemas: [
          ...field(definition, 'inputSchema', '/inputSchema'),
          ...field(definition, 'outputSchema', '/outputSchema'),
        ],
      };
  }
}
