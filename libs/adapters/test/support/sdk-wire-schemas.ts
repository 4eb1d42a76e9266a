/**
 * `@toolgate/adapters/testing`: checks wire tool definitions against the official SDKs' types at
 * run time, through JSON Schemas generated from those types (`conformance/sdk/wire-schemas.json`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Provider } from '../../src/index';

/** A wire's function tool definition, or (`<wire>:custom`) an OpenAI wire's custom tool for free text. */
type WireKind = Exclude<Provider, 'mcp'> | 'openai-chat:custom' | 'openai-responses:custom';

/** The generated schemas and the SDK versions they were generated from. */
export interface SdkWireSchemas {
  sdks: Record<string, string>;
  /** MCP has its own official schema (`conformance/mcp`). */
  schemas: Record<WireKind, Record<string, unknown>>;
}

/** Where the generated schemas are kept. */
export const SDK_WIRE_SCHEMAS_FILE = path.resolve(
  import.meta.dirname,
  '../../../../conformance/sdk/wire-schemas.json',
);

let validators: Map<string, ValidateFunction> | undefined;

function validatorsOf(): Map<string, ValidateFunction> {
  if (validators !== undefined) return validators;
  const { schemas } = JSON.parse(readFileSync(SDK_WIRE_SCHEMAS_FILE, 'utf8')) as SdkWireSchemas;
  const ajv = new Ajv({ strict: false, allErrors: true });
  validators = new Map(
    Object.entries(schemas).map(([kind, schema]) => [kind, ajv.compile(schema)]),
  );
  return validators;
}

/**
 * What in one wire definition the SDK's type does not allow; empty when it conforms. A
 * `type: 'custom'` definition is checked against the wire's custom tool type, if it has one.
 */
export function sdkTypeErrors(provider: Provider, definition: unknown): string[] {
  const custom =
    typeof definition === 'object' &&
    definition !== null &&
    (definition as Record<string, unknown>)['type'] === 'custom';
  const all = validatorsOf();
  const validate = (custom ? all.get(`${provider}:custom`) : undefined) ?? all.get(provider);
  if (validate === undefined || validate(definition)) return [];
  return (validate.errors ?? []).map((error) => {
    const extra = error.params['additionalProperty'] as string | undefined;
    const message = `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`;
    return extra === undefined ? message : `${message}: ${extra}`;
  });
}

const TYPES: Record<WireKind, string> = {
  'openai-chat': 'OpenAIChatTool',
  'openai-chat:custom': 'OpenAIChatCustomTool',
  'openai-responses': 'OpenAIResponsesTool',
  'openai-responses:custom': 'OpenAIResponsesCustomTool',
  anthropic: 'AnthropicTool',
  gemini: 'GeminiFunctionDeclaration',
};
const PACKAGES = ['openai', '@anthropic-ai/sdk', '@google/genai'] as const;

function versionOf(name: string): string {
  const require = createRequire(import.meta.url);
  // The package's own manifest, found above its resolved entry point.
  let directory = path.dirname(require.resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === name && manifest.version !== undefined) return manifest.version;
    } catch {
      // no manifest here: one level up
    }
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`no package.json for ${name}`);
    directory = parent;
  }
}

// The generator names anonymous types by a hash of where it found them; name them by their
// order instead, so the file is the same wherever the repository is checked out.
function renameDefinitions(schema: Record<string, unknown>): Record<string, unknown> {
  const definitions = (schema['definitions'] ?? {}) as Record<string, unknown>;
  const names = new Map(Object.keys(definitions).map((name, index) => [name, `Type${index + 1}`]));
  const text = JSON.stringify(schema, (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string') {
      const name = decodeURIComponent(value.replace('#/definitions/', ''));
      return `#/definitions/${names.get(name) ?? name}`;
    }
    if (key === 'definitions' && typeof value === 'object' && value !== null)
      return Object.fromEntries(
        Object.entries(value).map(([name, definition]) => [names.get(name) ?? name, definition]),
      );
    return value;
  });
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * JSON Schemas of the official SDKs' tool definition types (`sdk-wire-types.ts`), closed
 * wherever the type is (an unknown key is an error, as Gemini's API makes it). The TypeScript
 * compiler behind it loads only when this runs.
 */
export async function generateSdkWireSchemas(): Promise<SdkWireSchemas> {
  const { createGenerator } = await import('ts-json-schema-generator');
  const generator = createGenerator({
    path: path.join(import.meta.dirname, 'sdk-wire-types.ts'),
    tsconfig: path.join(import.meta.dirname, '../../tsconfig.json'),
    skipTypeCheck: true,
    expose: 'none',
    topRef: false,
    additionalProperties: false,
    jsDoc: 'none',
  });
  const schemas = {} as SdkWireSchemas['schemas'];
  for (const [provider, type] of Object.entries(TYPES) as Array<[keyof typeof TYPES, string]>)
    schemas[provider] = renameDefinitions(generator.createSchema(type) as Record<string, unknown>);
  return {
    sdks: Object.fromEntries(PACKAGES.map((name) => [name, versionOf(name)])),
    schemas,
  };
}
