import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS with a default export; under ESM interop it may sit one level down.
const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;

/** A fresh Ajv for JSON Schema 2020-12 with formats, the validator the round-trip judges by. */
export function createAjv(): Ajv2020 {
  // ownProperties: without it a missing "constructor" property is read from Object.prototype.
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateSchema: false,
    ownProperties: true,
  });
  addFormats(ajv);
  return ajv;
}

const shared = createAjv();
const cache = new Map<string, ValidateFunction>();

/** Compiles a schema once per distinct text; a schema with an `$id` gets its own instance (ids may repeat across cases). */
export function compile(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = cache.get(key);
  if (validate === undefined) {
    const hasId = typeof schema === 'object' && schema !== null && '$id' in schema;
    validate = (hasId ? createAjv() : shared).compile(schema as object);
    cache.set(key, validate);
  }
  return validate;
}

/** Validates and returns the errors (empty when accepted). */
export function errorsOf(validate: ValidateFunction, value: unknown): ErrorObject[] {
  return validate(value) ? [] : [...(validate.errors ?? [])];
}
