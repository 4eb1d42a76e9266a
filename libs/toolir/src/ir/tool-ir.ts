import { z } from 'zod';
import { ToolCompensationSchema, ToolConcurrencySchema } from '../writes/write-declarations';

/** The ToolIR format version this library reads and writes. */
export const TOOL_IR_SCHEMA_VERSION = '1.0';

// semver.org's official pattern (https://semver.org/#is-there-a-suggested-regular-expression-regex-to-check-a-semver-string)
const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

// Control characters in a tool name break every wire format and most logs.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A tool's name as its owners write it; adapters map it to each provider's name rules reversibly. */
export const ToolNameSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(256, 'must be at most 256 characters')
  .refine((name) => !CONTROL_CHARACTERS.test(name), 'must not contain control characters')
  .refine((name) => name.trim() === name, 'must not start or end with whitespace');

/** A semantic version (semver 2.0.0), e.g. `2.1.0` or `3.0.0-rc.1`. */
export const SemverSchema = z
  .string()
  .regex(SEMVER_PATTERN, 'must be a semantic version like 1.2.3');

/** A JSON Schema document (draft 2020-12) as a plain object. */
export const JsonSchemaObjectSchema = z.record(z.string(), z.unknown());
export type JsonSchema = z.infer<typeof JsonSchemaObjectSchema>;

/** A tag: lower-case, short, usable in URLs and filters. */
export const TagSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._:/-]{0,63}$/, 'must be 1-64 lower-case letters, digits or . _ : / -');

/** What a tool does to the world; drives approvals, retries and provider annotations. */
export const ToolBehaviorSchema = z.strictObject({
  readonly: z
    .boolean()
    .meta({ description: 'The tool only reads; it never changes state anywhere.' }),
  destructive: z
    .boolean()
    .meta({ description: 'The tool may delete or overwrite something that cannot be restored.' }),
  idempotent: z.boolean().meta({
    description:
      'Calling the tool twice with the same arguments has the same effect as once; only these are retried.',
  }),
  open_world: z.boolean().default(true).meta({
    description:
      "The tool reaches systems outside the operator's control (the internet, third parties).",
  }),
  requires_approval: z
    .enum(['always', 'never', 'if_destructive'])
    .default('if_destructive')
    .meta({ description: 'When a person must approve a call before it runs.' }),
});
export type ToolBehavior = z.infer<typeof ToolBehaviorSchema>;

/** A per-tool rate limit, shared by every worker. */
export const RateLimitSchema = z.strictObject({
  rpm: z.number().int().positive().meta({ description: 'Requests per minute.' }),
  tpm: z
    .number()
    .int()
    .positive()
    .optional()
    .meta({ description: 'Tokens (of arguments and results) per minute.' }),
});

/** An HTTP header name (RFC 9110 token). */
const HeaderNameSchema = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/, 'must be an HTTP header name');

/**
 * Where an `http` executor's upstream reports what one call actually cost, in US dollars: a
 * response header, or a number in the JSON result (a JSON Pointer). The reported amount wins over
 * `cost_estimate_usd`; a missing or unreadable amount falls back to the estimate.
 */
export const ToolCostReportSchema = z
  .discriminatedUnion('in', [
    z.strictObject({
      in: z.literal('header'),
      name: HeaderNameSchema.meta({ description: 'The response header, e.g. `X-Cost-USD`.' }),
    }),
    z.strictObject({
      in: z.literal('result'),
      pointer: z
        .string()
        .regex(
          /^(\/([^~/]|~[01])*)+$/,
          'must be a JSON Pointer into the result, like /usage/cost_usd',
        )
        .max(512)
        .meta({ description: 'JSON Pointer (RFC 6901) to a number in the JSON result.' }),
    }),
  ])
  .meta({
    description:
      "Where the upstream reports a call's actual cost in US dollars: a response header or a number in the JSON result.",
  });
export type ToolCostReport = z.infer<typeof ToolCostReportSchema>;

/** Execution limits the gateway enforces for every call of the tool. */
export const ToolConstraintsSchema = z.strictObject({
  timeout_ms: z.number().int().min(1).max(3_600_000).meta({
    description: 'Wall-clock budget of one attempt; the executor is aborted when it runs out.',
  }),
  max_retries: z.number().int().min(0).max(10).default(0).meta({
    description: 'Extra attempts after a transient failure; applied only to idempotent tools.',
  }),
  rate_limit: RateLimitSchema.optional(),
  cost_estimate_usd: z
    .number()
    .nonnegative()
    .optional()
    .meta({ description: 'Expected cost of one call in US dollars, for budgets and dashboards.' }),
  cost_report: ToolCostReportSchema.optional(),
  execution: z.enum(['inline', 'queued']).optional().meta({
    description:
      "Where a call runs: `inline` runs it in the gateway's API process with no queue hop (allowed only for readonly, idempotent, non-destructive tools), `queued` sends it through the queue to a worker; absent means `queued`.",
  }),
});
export type ToolConstraints = z.infer<typeof ToolConstraintsSchema>;

/** The longest a cached result may be served (one day): beyond it, a readonly answer is stale news. */
export const MAX_CACHE_TTL_MS = 86_400_000;

/**
 * A result cache in front of a readonly, idempotent tool version: a call whose key arguments match
 * a stored successful result within `ttl_ms` is answered from it without executing the tool.
 */
export const ToolCacheSchema = z.strictObject({
  ttl_ms: z
    .number()
    .int()
    .min(1)
    .max(MAX_CACHE_TTL_MS)
    .meta({
      description: 'How long a successful result is served from the cache, in milliseconds.',
    }),
  key: z
    .array(z.string().min(1, 'must not be empty'))
    .min(1, 'must name at least one argument; leave `key` out to key on all arguments')
    .optional()
    .meta({
      description:
        'The arguments that form the cache key: top-level argument names or JSON Pointers (`/filter/city`) into the arguments; absent means all arguments.',
    }),
  scope: z.enum(['team', 'shared']).default('team').meta({
    description:
      "Who shares an entry: `team` (the default) keeps each team's results to itself, `shared` serves one result to every team that may call the version.",
  }),
});
export type ToolCache = z.infer<typeof ToolCacheSchema>;

/** What the tool needs besides its arguments. */
export const ToolDependenciesSchema = z.strictObject({
  tools: z.array(ToolNameSchema).default([]).meta({
    description: 'Tools whose calls in the same turn must finish before this one starts.',
  }),
  data_sources: z.array(z.string().min(1)).default([]),
  auth_scopes: z.array(z.string().min(1)).default([]),
});
export type ToolDependencies = z.infer<typeof ToolDependenciesSchema>;

/** The longest grammar definition a tool may carry (characters). */
export const MAX_GRAMMAR_LENGTH = 65_536;

/**
 * A grammar that constrains a free-text input, as OpenAI's custom tools take it: `regex` (RE2
 * syntax, the whole input must match) or `lark` (a Lark context-free grammar).
 */
export const ToolGrammarSchema = z.strictObject({
  syntax: z.enum(['lark', 'regex']).meta({
    description:
      'The grammar language: `regex` (RE2 syntax; the whole input must match) or `lark` (a Lark context-free grammar).',
  }),
  definition: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_GRAMMAR_LENGTH, `must be at most ${MAX_GRAMMAR_LENGTH} characters`)
    .meta({ description: 'The grammar itself: the regular expression, or the Lark grammar text.' }),
});
export type ToolGrammar = z.infer<typeof ToolGrammarSchema>;

/**
 * How a tool takes its input: JSON arguments described by `parameters` (the default), or one
 * free text (an OpenAI custom tool), optionally constrained by a grammar.
 */
export const ToolInputFormatSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('json_schema').meta({
      description: 'JSON arguments, validated against `parameters`.',
    }),
  }),
  z.strictObject({
    type: z.literal('text').meta({
      description:
        'One free text, carried as the string argument `input`; `parameters` must be the one-string schema.',
    }),
    grammar: ToolGrammarSchema.optional(),
  }),
]);
export type ToolInputFormat = z.infer<typeof ToolInputFormatSchema>;

/** The provider-neutral description of one version of one tool. */
export const ToolIRSchema = z.strictObject({
  schema_version: z.literal(TOOL_IR_SCHEMA_VERSION),
  id: z.uuid().meta({ description: 'Stable identity of the tool across renames and versions.' }),
  name: ToolNameSchema,
  title: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .meta({ description: 'A short human-readable name, for consoles and MCP `title`.' }),
  version: SemverSchema,
  description: z
    .string()
    .max(16_384)
    .meta({ description: 'What the tool does and when to use it; the model reads this.' }),
  parameters: JsonSchemaObjectSchema.meta({
    description: 'JSON Schema (2020-12) of the arguments; the root is an object schema.',
  }),
  input_format: ToolInputFormatSchema.optional().meta({
    description:
      'JSON arguments (`json_schema`, the default when absent) or one free text (`text`, an OpenAI custom tool) with an optional grammar.',
  }),
  repair_cut_arguments: z.boolean().optional().meta({
    description:
      'Opt-in: a call whose JSON arguments were cut off (the model hit its token limit) is completed where the schema makes the completion unambiguous, validated, and run with its record marked repaired; absent means false. Refused for destructive tools and free-text input.',
  }),
  outputSchema: JsonSchemaObjectSchema.optional().meta({
    description: 'JSON Schema (2020-12) of the structured result, if the tool declares one.',
  }),
  behavior: ToolBehaviorSchema,
  constraints: ToolConstraintsSchema,
  dependencies: ToolDependenciesSchema.optional(),
  compensation: ToolCompensationSchema.optional(),
  concurrency: ToolConcurrencySchema.optional(),
  fallback: z
    .array(ToolNameSchema)
    .optional()
    .meta({ description: 'Tools tried in order when this one fails for good.' }),
  cache: ToolCacheSchema.optional().meta({
    description:
      'Serve successful results from a cache for `ttl_ms` (readonly, idempotent versions only); absent means every call executes.',
  }),
  tags: z.array(TagSchema).optional(),
  provider_hints: z.record(z.string(), z.record(z.string(), z.unknown())).optional().meta({
    description: "Per-provider extras, e.g. `{anthropic: {cache_control: {type: 'ephemeral'}}}`.",
  }),
  protocol_meta: z.record(z.string(), z.unknown()).optional().meta({
    description: 'Protocol fields carried through unchanged, e.g. MCP `_meta` or `icons`.',
  }),
});

/** One version of one tool, as every Toolgate component sees it. */
export type ToolIR = z.output<typeof ToolIRSchema>;
/** What `parseToolIR` accepts: ToolIR with its defaults still optional. */
export type ToolIRInput = z.input<typeof ToolIRSchema>;
