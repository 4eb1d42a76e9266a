import type { JsonSchema, ToolIR } from '@toolgate/toolir';
import { buildImportedTool } from '../shared/import-tool';
import { isSchemaNode, listOf, type SchemaNode } from '../shared/json-schema/schema-node';
import type { ToolFromWireOptions } from '../shared/tool-adapter';
import { parseWire } from '../shared/wire-boundary';
import { GeminiFunctionDeclarationSchema } from './gemini-api';

const INT64 = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);

/**
 * Gemini's OpenAPI schema back to JSON Schema 2020-12: lower-case types, `nullable` as a
 * `null` type (and `null` in an enum), `format:'enum'` values back to numbers, int64 strings to numbers.
 */
export function geminiSchemaToJsonSchema(schema: unknown): SchemaNode {
  if (!isSchemaNode(schema)) return {};
  const out: SchemaNode = {};
  const type = typeof schema['type'] === 'string' ? schema['type'].toLowerCase() : undefined;
  const nullable = schema['nullable'] === true;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' || key === 'nullable' || key === 'enum') continue;
    if (key === 'format' && value === 'enum') continue;
    if (key === 'properties' && isSchemaNode(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, geminiSchemaToJsonSchema(child)]),
      );
    } else if (key === 'items') out[key] = geminiSchemaToJsonSchema(value);
    else if (key === 'anyOf' && Array.isArray(value))
      out[key] = value.map(geminiSchemaToJsonSchema);
    else if (key === 'example') out['examples'] = [value];
    else if (INT64.has(key) && typeof value === 'string') out[key] = Number(value);
    else out[key] = value;
  }
  if (type !== undefined && type !== 'type_unspecified')
    out['type'] = nullable ? [type, 'null'] : type;
  else if (nullable && listOf(out['anyOf']) !== undefined)
    out['anyOf'] = [...(listOf(out['anyOf']) ?? []), { type: 'null' }];
  const values = listOf(schema['enum']);
  if (values !== undefined) {
    const restored = values.map((value): unknown => {
      if (typeof value !== 'string' || schema['format'] !== 'enum') return value;
      if (type === 'integer' || type === 'number') return Number(value);
      if (type === 'boolean') return value === 'true';
      return value;
    });
    out['enum'] = nullable ? [...restored, null] : restored;
  }
  return out;
}

/** Imports a Gemini function declaration (`parameters` or `parametersJsonSchema`; none means no parameters). */
export function convertToolFromGemini(wire: unknown, options: ToolFromWireOptions = {}): ToolIR {
  const declaration = parseWire(GeminiFunctionDeclarationSchema, wire, {
    provider: 'gemini',
    path: '/',
  });
  let parameters: JsonSchema = { type: 'object', properties: {} };
  if (declaration.parametersJsonSchema != null) parameters = declaration.parametersJsonSchema;
  else if (declaration.parameters != null)
    parameters = geminiSchemaToJsonSchema(declaration.parameters);
  return buildImportedTool(
    { wireName: declaration.name, description: declaration.description ?? '', parameters },
    { provider: 'gemini', names: options.names },
  );
}
