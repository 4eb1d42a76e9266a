import { dereference, validate, type ParserOptions } from '@readme/openapi-parser';
import { isRecord } from '@toolgate/toolir';
import { parse as parseYaml } from 'yaml';
import { ToolException, type ProblemIssue } from '../problem/tool.exception';

// The document comes from the request alone: no file system, no network, no external $refs.
const PARSER_OPTIONS: ParserOptions = {
  resolve: { external: false, file: false },
  dereference: { circular: 'ignore' },
  timeoutMs: 10_000,
};

function invalid(message: string, issues: ProblemIssue[]): ToolException {
  return new ToolException('invalid_tool_definition', message, { issues });
}

/** The parser's messages carry a code frame after the first line; the first line says what is wrong. */
function firstLine(message: string): string {
  return message.split('\n', 1)[0]?.trim() ?? message;
}

/** A JSON or YAML text, or an object, as a plain object; the parser itself would read a string as a file path. */
function toObject(document: unknown): Record<string, unknown> {
  let value = document;
  if (typeof document === 'string') {
    try {
      value = parseYaml(document, { maxAliasCount: 100 }) as unknown;
    } catch (error) {
      throw invalid('The document is neither JSON nor YAML.', [
        {
          path: '/body/document',
          message: firstLine(error instanceof Error ? error.message : String(error)),
        },
      ]);
    }
  }
  if (!isRecord(value)) {
    throw invalid('The document must be an OpenAPI object.', [
      { path: '/body/document', message: 'must be an object (or its JSON/YAML text)' },
    ]);
  }
  const version = value['openapi'];
  if (typeof version !== 'string' || !/^3\.[01]\.\d+/.test(version)) {
    throw invalid('Only OpenAPI 3.0 and 3.1 documents can be imported.', [
      { path: '/body/document/openapi', message: 'must be an OpenAPI version 3.0.x or 3.1.x' },
    ]);
  }
  return value;
}

/**
 * Reads, validates (against the OpenAPI 3.0/3.1 schemas and the parser's rules) and dereferences an
 * OpenAPI document; every parser error comes back as a 422 issue.
 */
export async function loadOpenApiDocument(document: unknown): Promise<Record<string, unknown>> {
  const object = toObject(document);
  const result = await validate(structuredClone(object) as never, PARSER_OPTIONS);
  if (!result.valid) {
    const issues = result.errors.map((error) => ({
      path: '/body/document',
      message: firstLine(error.message),
    }));
    if (result.additionalErrors > 0) {
      issues.push({
        path: '/body/document',
        message: `and ${result.additionalErrors} more errors`,
      });
    }
    throw invalid('The OpenAPI document is not valid.', issues);
  }
  try {
    const dereferenced: unknown = await dereference(
      structuredClone(object) as never,
      PARSER_OPTIONS,
    );
    if (!isRecord(dereferenced)) throw new Error('the dereferenced document is not an object');
    return dereferenced;
  } catch (error) {
    throw invalid('The OpenAPI document cannot be dereferenced.', [
      {
        path: '/body/document',
        message: firstLine(error instanceof Error ? error.message : String(error)),
      },
    ]);
  }
}
