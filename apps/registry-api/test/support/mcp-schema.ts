import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';

// The official MCP schemas, kept in the repository (conformance/mcp/README.md).
const CONFORMANCE_DIR = path.resolve(import.meta.dirname, '../../../../conformance/mcp');

/** The MCP revision Toolgate speaks. */
export const MCP_PROTOCOL = '2025-11-25';

/**
 * A checker against one revision's official schema: the problems of `value` as the named
 * definition (e.g. `ListToolsResult`), none when it conforms.
 */
export function mcpSchemaChecker(
  revision: string,
): (definition: string, value: unknown) => string[] {
  const schema = JSON.parse(
    readFileSync(path.join(CONFORMANCE_DIR, `schema-${revision}.json`), 'utf8'),
  ) as object;
  // The published schema uses "format" values Ajv does not know; they carry no rule we check.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(schema, revision);
  return (definition, value) => {
    const validate = ajv.getSchema(`${revision}#/$defs/${definition}`);
    if (validate === undefined) throw new Error(`no ${definition} in the ${revision} schema`);
    return validate(value)
      ? []
      : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
  };
}
