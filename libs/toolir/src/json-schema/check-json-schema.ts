import { Ajv2020 } from 'ajv/dist/2020.js';
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
  return (metaValidator.errors ?? []).map((error) => ({
    path: `${basePath}${error.instancePath}` || '/',
    message: error.message ?? 'is not valid JSON Schema',
  }));
}
