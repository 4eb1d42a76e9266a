import { isTextInput, mapSchema, TEXT_INPUT_PROPERTY, type ToolIR } from '@toolgate/toolir';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

/** `get_weather` -> `GetWeather`: the stem of a tool's type names. */
export function typeStemOf(name: string): string {
  const stem = name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
  return /^[0-9]/.test(stem) ? `T${stem}` : stem;
}

/**
 * A schema ready for the generator: titles dropped (the generator names types after them, and two
 * tools may share one), each definition titled after its tool so names never collide in one file.
 */
function namedSchema(schema: Record<string, unknown>, typeName: string): JSONSchema {
  const untitled = mapSchema(schema, (subschema) => {
    const { title: _title, ...rest } = subschema;
    return rest;
  }) as Record<string, unknown>;
  const definitions = untitled['$defs'];
  const named =
    typeof definitions === 'object' && definitions !== null
      ? Object.fromEntries(
          Object.entries(definitions).map(([key, definition]) => [
            key,
            typeof definition === 'object' && definition !== null
              ? { ...definition, title: `${typeName}${typeStemOf(key)}` }
              : definition,
          ]),
        )
      : undefined;
  return {
    ...untitled,
    ...(named === undefined ? {} : { $defs: named }),
    title: typeName,
  };
}

async function declarationsOf(schema: Record<string, unknown>, typeName: string): Promise<string> {
  return compile(namedSchema(schema, typeName), typeName, {
    bannerComment: '',
    // Prettier's output may change between its versions; the generator's own layout does not.
    format: false,
    additionalProperties: false,
    strictIndexSignatures: true,
    unknownAny: true,
    $refOptions: { resolve: { external: false } },
  });
}

/** The declarations of one tool version: its arguments, and its result when it declares one. */
async function toolDeclarations(tool: ToolIR): Promise<string> {
  const stem = typeStemOf(tool.name);
  const parameters = isTextInput(tool)
    ? {
        type: 'object',
        properties: { [TEXT_INPUT_PROPERTY]: { type: 'string' } },
        required: [TEXT_INPUT_PROPERTY],
        additionalProperties: false,
      }
    : tool.parameters;
  const parts = [
    `/** ${tool.name}@${tool.version}: the arguments a call passes. */\n`,
    await declarationsOf(parameters, `${stem}Arguments`),
  ];
  if (tool.outputSchema !== undefined) {
    parts.push(
      `/** ${tool.name}@${tool.version}: the result it returns. */\n`,
      await declarationsOf(tool.outputSchema, `${stem}Result`),
    );
  }
  return parts.join('');
}

/**
 * The TypeScript module `toolgate types` writes for tool versions: per tool its arguments (and
 * result) types, and `ToolgateTools`, the map `registryTypes` and `implementTool` take. The same
 * versions give the same bytes.
 */
export async function generateToolTypes(tools: readonly ToolIR[]): Promise<string> {
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sections: string[] = [];
  for (const tool of sorted) sections.push(await toolDeclarations(tool));
  const entries = sorted.map((tool) => {
    const stem = typeStemOf(tool.name);
    const result = tool.outputSchema === undefined ? 'unknown' : `${stem}Result`;
    return `  ${JSON.stringify(tool.name)}: { arguments: ${stem}Arguments; result: ${result} };\n`;
  });
  const names = sorted.map((tool) => JSON.stringify(tool.name)).join(', ');
  return [
    '/* eslint-disable */\n',
    '// Written by `toolgate types` from toolgate-types.lock.json; run it again instead of editing.\n\n',
    ...sections.map((section) => `${section}\n`),
    '/** The pinned tools by name: for `registryTypes<ToolgateTools>(toolgateToolNames)` and `implementTool<ToolgateTools[name]>`. */\n',
    'export interface ToolgateTools {\n',
    ...entries,
    '}\n\n',
    `export const toolgateToolNames = [${names}] as const;\n`,
  ].join('');
}
