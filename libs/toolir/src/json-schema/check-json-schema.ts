import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import type { Issue } from '../errors/toolgate-error';

// One Ajv instance only for meta-schema checks: compiling schemas happens elsewhere, with caching.
const metaValidator = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

/**
 * Checks a JSON Schema document against the draft 2020-12 meta-schema.
 * Returns every problem with its path inside the schema (prefixed by `basePath`); an empty list means valid.
 */
export function checkJsonSchema(schema: unknown, basePath = ''): Issue[] {
  if (typeof schema === 'boolean') return [];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [{ path: basePath || '/', message: 'must be a JSON Schema object' }];
  }
  const dialect = (schema as Record<string, unknown>)['$schema'];
  if (dialect !== undefined && typeof dialect === 'string' && !dialect.includes('2020-12')) {
    return [
      {
        path: `${basePath}/$schema`,
        message: `only JSON Schema draft 2020-12 is supported, got ${dialect}`,
      },
    ];
  }
  if (metaValidator.validateSchema(schema) === true) return [];
  return metaSchemaIssues(metaValidator.errors ?? []).map((issue) => ({
    path: `${basePath}${issue.path}` || '/',
    message: issue.message,
  }));
}

function describeMetaError(error: ErrorObject): string {
  const allowed = (error.params as Record<string, unknown>)['allowedValues'];
  if (error.keyword === 'enum' && Array.isArray(allowed))
    return `must be one of: ${allowed.map(String).join(', ')}`;
  return error.message ?? 'is not valid JSON Schema';
}

/** One issue per failed `anyOf` of the meta-schema (e.g. `type`: a name or a list of names), not one per branch. */
function metaSchemaIssues(errors: readonly ErrorObject[]): Issue[] {
  const folded = new Set<ErrorObject>();
  const summaries = new Map<ErrorObject, string>();
  for (const parent of errors.filter((error) => error.keyword === 'anyOf')) {
    // Branch errors come right before their anyOf; their schemaPath may run through a $ref, so match by position and path.
    const branches = errors
      .slice(0, errors.indexOf(parent))
      .filter(
        (error) =>
          !folded.has(error) &&
          error.keyword !== 'anyOf' &&
          error.instancePath === parent.instancePath,
      );
    if (branches.length === 0) continue;
    branches.forEach((branch) => folded.add(branch));
    summaries.set(parent, branches.map(describeMetaError).join(', or '));
  }
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (folded.has(error)) continue;
    const issue = {
      path: error.instancePath,
      message: summaries.get(error) ?? describeMetaError(error),
    };
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}
