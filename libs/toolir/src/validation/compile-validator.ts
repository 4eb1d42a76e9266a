import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ToolgateError, type Issue } from '../errors/toolgate-error';
import type { ToolIR } from '../ir/tool-ir';
import { checkJsonSchema } from '../json-schema/check-json-schema';
import { findUnguardedCycles } from '../json-schema/find-unguarded-cycles';
import { walkSchema } from '../json-schema/walk-schema';
import { canonicalJson } from '../json/canonical-json';
import { compileRegexGrammar, grammarOf, TEXT_INPUT_PROPERTY } from '../input-format/text-input';
import { cloneJson } from '../json/clone-json';
import type { ArgumentError, ArgumentValidationResult } from './argument-error';
import { formatArgumentErrors } from './format-argument-errors';
import { LruCache } from './lru-cache';

/** What argument validation needs of a tool: its identity, its parameters schema and its input format. */
export type ValidatableTool = Pick<ToolIR, 'id' | 'version' | 'parameters'> &
  Partial<Pick<ToolIR, 'input_format'>>;

/** A compiled, reusable validator for one version of one tool. */
export interface ArgumentValidator {
  /** The tool id the validator was compiled for (the first half of its cache key). */
  readonly toolId: string;
  /** The tool version the validator was compiled for (the second half of its cache key). */
  readonly version: string;
  /** Canonical JSON of the parameters schema (and grammar) it was compiled from; a different one gets a new validator. */
  readonly fingerprint: string;
  /** Validates a copy of `args` (defaults written into the copy, no coercion); the caller's value is never changed. */
  readonly validate: (args: unknown) => ArgumentValidationResult;
}

/** How many compiled validators are kept by default; the least recently used one is dropped beyond this. */
export const VALIDATOR_CACHE_CAPACITY = 1000;

// Defaults fill the copy so executors see complete arguments; no coercion, so "5" never becomes 5
// behind the model's back; all errors at once, so the model can fix every problem in one turn.
const AJV_OPTIONS = {
  allErrors: true,
  useDefaults: true,
  coerceTypes: false,
  strict: false,
  verbose: true,
  logger: false,
  validateFormats: true,
  // Without it Ajv reads `constructor` or `toString` off Object.prototype and judges a missing
  // argument named like that as present.
  ownProperties: true,
} as const;

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020(AJV_OPTIONS);
  addFormats(ajv);
  return ajv;
}

const TOO_DEEP: ArgumentError = {
  path: '/',
  keyword: 'maxDepth',
  message: 'the arguments are nested too deeply to validate',
};

let sharedAjv: Ajv2020 | undefined;

function ajvFor(schema: Record<string, unknown>): { ajv: Ajv2020; shared: boolean } {
  // Ajv registers every `$id` it sees; two tools declaring the same `$id` would collide in one instance.
  let declaresId = false;
  walkSchema(schema, (subschema) => {
    if (typeof subschema['$id'] === 'string') declaresId = true;
  });
  if (declaresId) return { ajv: newAjv(), shared: false };
  sharedAjv ??= newAjv();
  return { ajv: sharedAjv, shared: true };
}

interface CacheEntry {
  validator: ArgumentValidator;
  release: () => void;
}

function newCache(capacity: number): LruCache<string, CacheEntry> {
  return new LruCache<string, CacheEntry>(capacity, (_key, entry) => entry.release());
}

let cache = newCache(VALIDATOR_CACHE_CAPACITY);
const fingerprints = new WeakMap<object, string>();

function fingerprintOf(tool: ValidatableTool): string {
  let fingerprint = fingerprints.get(tool.parameters);
  if (fingerprint === undefined) {
    fingerprint = canonicalJson(tool.parameters);
    fingerprints.set(tool.parameters, fingerprint);
  }
  const grammar = grammarOf(tool);
  // A grammar is short next to a schema, and absent from most tools: no memo needed.
  return grammar === undefined
    ? fingerprint
    : `${fingerprint}\u0000${grammar.syntax}\u0000${grammar.definition}`;
}

/** The check of a free-text input against its regex grammar, run after the schema check passed. */
function grammarMatcher(
  tool: ValidatableTool,
): ((value: Record<string, unknown>) => ArgumentError[]) | undefined {
  const grammar = grammarOf(tool);
  if (grammar?.syntax !== 'regex') return undefined;
  const regex = compileRegexGrammar(grammar.definition);
  const shown =
    grammar.definition.length > 200 ? `${grammar.definition.slice(0, 200)}…` : grammar.definition;
  return (value) => {
    const input = value[TEXT_INPUT_PROPERTY];
    if (typeof input !== 'string' || regex.matches(input)) return [];
    return [
      {
        path: `/${TEXT_INPUT_PROPERTY}`,
        keyword: 'grammar',
        message: `/${TEXT_INPUT_PROPERTY} must match the whole regular expression ${shown}`,
        params: { syntax: 'regex', definition: grammar.definition },
      },
    ];
  };
}

function compile(tool: ValidatableTool, fingerprint: string): CacheEntry {
  const metaIssues: Issue[] = checkJsonSchema(tool.parameters, '/parameters');
  const issues =
    metaIssues.length > 0 ? metaIssues : findUnguardedCycles(tool.parameters, '/parameters');
  if (issues.length > 0) {
    throw new ToolgateError(
      'invalid_schema',
      `Invalid parameters schema of ${tool.id}@${tool.version}`,
      {
        details: { issues },
      },
    );
  }
  const matchGrammar = grammarMatcher(tool);
  // Ajv keeps the compiled schema object: give it a private copy the caller cannot change later.
  const schema = cloneJson(tool.parameters);
  const { ajv, shared } = ajvFor(schema);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolgateError(
      'invalid_schema',
      `Cannot compile the parameters schema of ${tool.id}@${tool.version}: ${message}`,
      {
        details: { issues: [{ path: '/parameters', message }] },
        cause: error,
      },
    );
  }
  const validator: ArgumentValidator = {
    toolId: tool.id,
    version: tool.version,
    fingerprint,
    validate: (args: unknown): ArgumentValidationResult => {
      let value: unknown;
      try {
        value = cloneJson(args);
        if (validate(value)) {
          const record = value as Record<string, unknown>;
          const grammarErrors = matchGrammar?.(record) ?? [];
          return grammarErrors.length === 0
            ? { ok: true, value: record }
            : { ok: false, errors: grammarErrors };
        }
      } catch (error) {
        // Cyclic schemas are refused at compile time, so only absurdly deep arguments get here.
        if (error instanceof RangeError) return { ok: false, errors: [TOO_DEEP] };
        throw error;
      }
      return { ok: false, errors: formatArgumentErrors(validate.errors ?? []) };
    },
  };
  return {
    validator,
    release: () => {
      if (shared) ajv.removeSchema(schema);
    },
  };
}

/**
 * Returns the validator of a tool's arguments, compiled once and cached per (id, version); a
 * free-text tool's input is also matched against its regex grammar (a Lark grammar is not checked:
 * see `grammarCheckOf`);
 * a changed parameters schema under the same id and version is detected (by its canonical JSON) and recompiled.
 * The fingerprint of a parameters object is memoised per object: change a schema by replacing the object, not in place.
 * Throws ToolgateError `invalid_schema` (with `details.issues`) when the schema cannot be compiled.
 */
export function compileValidator(tool: ValidatableTool): ArgumentValidator {
  const key = `${tool.id}@${tool.version}`;
  const fingerprint = fingerprintOf(tool);
  const cached = cache.get(key);
  if (cached?.validator.fingerprint === fingerprint) return cached.validator;
  const entry = compile(tool, fingerprint);
  cache.set(key, entry);
  return entry.validator;
}

/** Drops every cached validator (for tests and for hosts that reload all tools at once). */
export function clearValidatorCache(): void {
  cache.clear();
}

/** Resizes the validator cache (dropping every cached validator), for hosts serving many more tools than the default. */
export function setValidatorCacheCapacity(capacity: number): void {
  const resized = newCache(capacity);
  cache.clear();
  cache = resized;
}
