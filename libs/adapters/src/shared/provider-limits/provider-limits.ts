import type { SchemaLimits } from '../json-schema/schema-limits';
import type { StrictProfile } from '../json-schema/strict-schema';
import type { NameRules } from '../names/name-rules';
import type { Provider } from '../provider';

/** What a wire accepts in a tool's parameter schema, outside strict mode. */
export interface SchemaRules {
  /** Keywords the root may not carry (the root is an object schema on every wire). */
  rootRefuses: readonly string[];
  /** The root needs `properties`, even `{}` ("object schema missing properties"). */
  rootNeedsProperties: boolean;
  /** Every array needs `items` ("array schema missing items"). */
  arraysNeedItems: boolean;
  /** Every subschema needs a `type`, unless it is a composition (`anyOf`, `$ref`, ...). */
  subschemasNeedType: boolean;
  /** Property schemas must be objects, never `true` / `false`. */
  propertiesAreObjects: boolean;
  /** The only keywords a subschema may carry; `undefined` where any keyword goes. */
  keywords: ReadonlySet<string> | undefined;
  /** The formats each type may carry, where the wire restricts them. */
  formats: Readonly<Record<string, ReadonlySet<string>>> | undefined;
  /** `enum` values must be non-empty strings. */
  stringEnums: boolean;
  /** `properties` must not be empty ("should be non-empty for OBJECT type"). */
  nonEmptyProperties: boolean;
  /** Every `required` name is a key of `properties` ("required[0]: property is not defined"). */
  requiredNamesProperties: boolean;
  /** The case `type` values are written in. */
  typeCase: 'lower' | 'upper';
}

/** What a wire's strict mode adds to its schema rules. */
export interface StrictRules extends StrictProfile {
  /** Size limits of one strict schema, where the wire documents them. */
  limits: SchemaLimits | undefined;
  /** Strict schemas may not recurse. */
  noRecursion: boolean;
}

/** Limits over one request's tool list. */
export interface RequestLimits {
  /** Tools in one request. */
  maxTools?: number;
  /** Tools with a prompt-cache breakpoint. */
  maxCacheBreakpoints?: number;
  /** Strict tools. */
  maxStrictTools?: number;
  /** Optional top-level parameters across every strict tool. */
  maxStrictOptionalParameters?: number;
  /** Top-level parameters with `anyOf` or a type list across every strict tool. */
  maxStrictUnionParameters?: number;
}

/** Everything one wire limits about a tool list: conversion and check both read this. */
export interface ProviderLimits {
  /** Tool (function) names. */
  toolName: NameRules;
  /** Property keys at any depth; `undefined` where any key goes. */
  propertyKey: NameRules | undefined;
  /** Call ids; `undefined` where any non-empty string goes. */
  callId: NameRules | undefined;
  /** Characters of a tool description; `undefined` where none is documented. */
  maxDescriptionLength: number | undefined;
  /** The parameter schema (Gemini: its `parameters`, the OpenAPI subset). */
  schema: SchemaRules;
  /** Gemini's `parametersJsonSchema`: plain JSON Schema. */
  jsonSchema?: SchemaRules;
  strict: StrictRules | undefined;
  request: RequestLimits;
  /**
   * The wire has free-text (custom) tools; elsewhere a free-text tool is sent as a function with
   * one string parameter, `input`.
   */
  freeTextTools: boolean;
}

const ANY_SCHEMA: SchemaRules = {
  rootRefuses: [],
  rootNeedsProperties: false,
  arraysNeedItems: false,
  subschemasNeedType: false,
  propertiesAreObjects: false,
  keywords: undefined,
  formats: undefined,
  stringEnums: false,
  nonEmptyProperties: false,
  requiredNamesProperties: false,
  typeCase: 'lower',
};

const STRICT_KEYWORDS = new Set([
  'type',
  'anyOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minItems',
  'format',
]);
const STRICT_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname'] as const;

/** OpenAI strict-mode limits as currently documented; pass `limits` to tighten (e.g. 5 levels, 100 properties). */
export const DEFAULT_OPENAI_LIMITS: SchemaLimits = {
  maxNestingDepth: 10,
  maxProperties: 5000,
  maxEnumValues: 1000,
  maxSchemaChars: 120_000,
  maxLargeEnumChars: 15_000,
};

/**
 * OpenAI strict mode (openai-node `transform-json-schema.ts`). The limits are configurable.
 */
export const OPENAI_STRICT: StrictRules = {
  keep: STRICT_KEYWORDS,
  formats: new Set([...STRICT_FORMATS, 'ipv4', 'ipv6', 'uuid']),
  requireAll: true,
  limits: DEFAULT_OPENAI_LIMITS,
  noRecursion: false,
};

/** Anthropic strict tools (anthropic-sdk `transform-json-schema.ts`): no recursion, optional keys kept. */
export const ANTHROPIC_STRICT: StrictRules = {
  keep: STRICT_KEYWORDS,
  formats: new Set([...STRICT_FORMATS, 'uri', 'ipv4', 'ipv6', 'uuid']),
  requireAll: false,
  limits: undefined,
  noRecursion: true,
};

const OPENAI_NAMES: NameRules = {
  allowed: /[a-zA-Z0-9_-]/,
  first: /[a-zA-Z0-9_-]/,
  maxLength: 64,
};

const OPENAI: Omit<ProviderLimits, 'callId' | 'request'> = {
  toolName: OPENAI_NAMES,
  propertyKey: undefined,
  // "string too long ... maximum length 1024" on `function.description`.
  maxDescriptionLength: 1024,
  schema: {
    ...ANY_SCHEMA,
    // "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level".
    rootRefuses: ['oneOf', 'anyOf', 'allOf', 'enum', 'not'],
    rootNeedsProperties: true,
    arraysNeedItems: true,
    // "In context=('properties', 'x'), schema must have a 'type' key".
    subschemasNeedType: true,
  },
  strict: OPENAI_STRICT,
  // `{type: 'custom', format?: {type: 'text'} | {type: 'grammar', syntax, definition}}`.
  freeTextTools: true,
};

// Gemini's `Schema` (js-genai `types.ts`) minus `default`, which older models refuse.
const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'propertyOrdering',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
]);

/**
 * Each wire's limits, from its published schema, SDK and the errors users hit (provider-rules §2).
 * The converters shape their output by this table and `checkWireTools` measures it against the
 * same table, so an export that converts is an export that checks.
 */
export const PROVIDER_LIMITS: Readonly<Record<Provider, ProviderLimits>> = {
  'openai-chat': {
    ...OPENAI,
    callId: undefined,
    // "A max of 128 functions are supported" (openapi.yaml, CreateChatCompletionRequest.tools).
    request: { maxTools: 128 },
  },
  'openai-responses': {
    ...OPENAI,
    // `call_id` is 1-64 characters (FunctionCallOutputItemParam).
    callId: { allowed: /[\s\S]/, first: /[\s\S]/, maxLength: 64 },
    request: {},
  },
  anthropic: {
    toolName: { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/, maxLength: 128 },
    // "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'".
    propertyKey: { allowed: /[a-zA-Z0-9_.-]/, first: /[a-zA-Z0-9_.-]/, maxLength: 64 },
    callId: { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/, maxLength: 256 },
    maxDescriptionLength: undefined,
    // "input_schema does not support oneOf, allOf, or anyOf at the top level".
    schema: { ...ANY_SCHEMA, rootRefuses: ['oneOf', 'anyOf', 'allOf'] },
    strict: ANTHROPIC_STRICT,
    freeTextTools: false,
    request: {
      maxCacheBreakpoints: 4,
      // Documented strict-tool limits (provider-rules §2.3, secondary source).
      maxStrictTools: 20,
      maxStrictOptionalParameters: 24,
      maxStrictUnionParameters: 16,
    },
  },
  gemini: {
    // Starts with a letter or `_`; kept to 64 because older Gemini protos stop there.
    toolName: { allowed: /[a-zA-Z0-9_.:-]/, first: /[a-zA-Z_]/, maxLength: 64 },
    propertyKey: { allowed: /[A-Za-z0-9_]/, first: /[A-Za-z_]/, maxLength: 64 },
    callId: undefined,
    maxDescriptionLength: undefined,
    schema: {
      ...ANY_SCHEMA,
      rootRefuses: ['anyOf'],
      arraysNeedItems: true,
      // "type must be specified when not using one_of, any_of or all_of fields".
      subschemasNeedType: true,
      propertiesAreObjects: true,
      keywords: GEMINI_KEYWORDS,
      // "format: only 'enum' and 'date-time' are supported for STRING type".
      formats: {
        STRING: new Set(['enum', 'date-time']),
        NUMBER: new Set(['float', 'double', 'enum']),
        INTEGER: new Set(['int32', 'int64', 'enum']),
      },
      stringEnums: true,
      nonEmptyProperties: true,
      requiredNamesProperties: true,
      typeCase: 'upper',
    },
    jsonSchema: { ...ANY_SCHEMA, rootRefuses: ['$schema', '$id'] },
    strict: undefined,
    freeTextTools: false,
    request: {},
  },
  mcp: {
    // SHOULD be 1-128 of [A-Za-z0-9_.-] (SEP-986).
    toolName: { allowed: /[A-Za-z0-9_.-]/, first: /[A-Za-z0-9_.-]/, maxLength: 128 },
    propertyKey: undefined,
    callId: undefined,
    maxDescriptionLength: undefined,
    // 2025-11-25's schema.json types `inputSchema.properties` values as objects.
    schema: { ...ANY_SCHEMA, propertiesAreObjects: true },
    strict: undefined,
    freeTextTools: false,
    request: {},
  },
};
