import { z } from 'zod';
import { ToolgateError } from '../errors/toolgate-error';
import { defineTextTool } from './define-text-tool';
import { TOOL_ID_NAMESPACE, uuidV5 } from '../hash/uuid-v5';
import { parseToolIR } from '../ir/parse-tool-ir';
import { argumentErrorsFromZod } from '../validation/argument-errors-from-zod';
import { mapSchema } from '../json-schema/walk-schema';
import {
  TOOL_IR_SCHEMA_VERSION,
  type JsonSchema,
  type ToolBehavior,
  type ToolIR,
  type ToolIRInput,
} from '../ir/tool-ir';
import type { ArgumentValidationResult } from '../validation/argument-error';

/** What a handler gets besides its arguments. */
export interface ToolHandlerContext {
  /** Aborted when the call's timeout runs out or the call is cancelled; long work should stop then. */
  signal?: AbortSignal;
  /** The id of the call being executed, for logs and idempotency. */
  callId?: string;
}

/** The code that runs a tool in-process (a `builtin` executor): typed arguments in, result out. */
export type ToolHandler<TArgs, TResult> = (
  args: TArgs,
  context: ToolHandlerContext,
) => TResult | Promise<TResult>;

/** The zod schema of a tool's arguments: always an object, as every provider requires. */
export type ToolParametersSchema = z.ZodObject;

/** What a handler returns: the output schema's value when the tool declares one, else any JSON-like value. */
export type ToolHandlerResult<TOutput extends z.ZodType | undefined> = TOutput extends z.ZodType
  ? z.output<TOutput>
  : unknown;

/** The ToolIR fields `defineTool` takes as they are; `id`, `version` and `schema_version` get defaults. */
export type DefineToolFields = Omit<
  ToolIRInput,
  'schema_version' | 'id' | 'version' | 'parameters' | 'outputSchema'
> & {
  /** Defaults to a UUID v5 of the name in `TOOL_ID_NAMESPACE`, so redefining a tool keeps its id. */
  id?: string;
  /** Defaults to `1.0.0`. */
  version?: string;
};

/** The input of `defineTool`: ToolIR fields plus zod schemas for arguments and result, and an optional handler. */
export type DefineToolOptions<
  TParams extends ToolParametersSchema,
  TOutput extends z.ZodType | undefined,
  TName extends string = string,
  TResult extends ToolHandlerResult<TOutput> = ToolHandlerResult<TOutput>,
> = DefineToolFields & {
  /** Kept as a literal type, so loops can type each tool's calls and results by name. */
  name: TName;
  parameters: TParams;
  outputSchema?: TOutput;
  /** Its return type is kept (within the output schema's), so loops type the tool's results. */
  handler?: ToolHandler<z.output<TParams>, TResult>;
};

/** A tool defined in code: its validated ToolIR, its zod schemas, and (when given) its typed handler. */
export interface DefinedTool<
  TParams extends ToolParametersSchema,
  TOutput extends z.ZodType | undefined = undefined,
  TName extends string = string,
  TResult extends ToolHandlerResult<TOutput> = ToolHandlerResult<TOutput>,
> {
  /** The tool's name (also `tool.name`), as a literal type. */
  readonly name: TName;
  /** The ToolIR (it passed `parseToolIR`), with JSON Schemas generated from the zod schemas. */
  readonly tool: ToolIR;
  readonly parameters: TParams;
  readonly outputSchema: TOutput;
  readonly handler?: ToolHandler<z.output<TParams>, TResult>;
  /** Parses arguments with the zod schema (transforms and defaults applied), e.g. right before calling the handler. */
  readonly parseArguments: (args: unknown) => ArgumentValidationResult<z.output<TParams>>;
}

function toJsonSchema(schema: z.ZodType, field: string, io: 'input' | 'output'): JsonSchema {
  let generated: Record<string, unknown>;
  try {
    generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolgateError(
      'invalid_schema',
      `The ${field} schema cannot be represented as JSON Schema: ${message}`,
      {
        details: { issues: [{ path: `/${field}`, message }] },
        cause: error,
      },
    );
  }
  // The dialect is implied by ToolIR (always 2020-12); providers reject or ignore `$schema`.
  const { $schema: _dialect, ...rest } = generated;
  return mapSchema(rest, dropSafeIntegerBounds) as JsonSchema;
}

/**
 * zod writes `z.int()`'s safe-integer range as minimum/maximum on every integer. They constrain
 * nothing a model would send, and wires that cannot carry them would spell them out in descriptions.
 */
function dropSafeIntegerBounds(subschema: Record<string, unknown>): Record<string, unknown> {
  if (subschema['type'] !== 'integer') return subschema;
  const { minimum, maximum, ...rest } = subschema;
  return {
    ...rest,
    ...(minimum === Number.MIN_SAFE_INTEGER || minimum === undefined ? {} : { minimum }),
    ...(maximum === Number.MAX_SAFE_INTEGER || maximum === undefined ? {} : { maximum }),
  };
}

function defineToolOf<
  TName extends string,
  TParams extends ToolParametersSchema,
  TOutput extends z.ZodType | undefined = undefined,
  TResult extends ToolHandlerResult<TOutput> = ToolHandlerResult<TOutput>,
>(
  options: DefineToolOptions<TParams, TOutput, TName, TResult>,
): DefinedTool<TParams, TOutput, TName, TResult> {
  const { parameters, outputSchema, handler, id, version, ...fields } = options;
  const tool = parseToolIR({
    ...fields,
    schema_version: TOOL_IR_SCHEMA_VERSION,
    id: id ?? uuidV5(TOOL_ID_NAMESPACE, fields.name),
    version: version ?? '1.0.0',
    parameters: toJsonSchema(parameters, 'parameters', 'input'),
    ...(outputSchema === undefined
      ? {}
      : { outputSchema: toJsonSchema(outputSchema, 'outputSchema', 'output') }),
  });
  return {
    name: options.name,
    tool,
    parameters,
    outputSchema: outputSchema as TOutput,
    ...(handler === undefined ? {} : { handler }),
    parseArguments: (args: unknown): ArgumentValidationResult<z.output<TParams>> => {
      const parsed = parameters.safeParse(args);
      if (parsed.success) return { ok: true, value: parsed.data };
      return { ok: false, errors: argumentErrorsFromZod(parsed.error) };
    },
  };
}

/** What a preset takes: `behavior` is filled in (each flag can still be overridden), `constraints` defaults. */
export type DefineToolPresetOptions<
  TParams extends ToolParametersSchema,
  TOutput extends z.ZodType | undefined,
  TName extends string,
  TResult extends ToolHandlerResult<TOutput> = ToolHandlerResult<TOutput>,
> = Omit<DefineToolOptions<TParams, TOutput, TName, TResult>, 'behavior' | 'constraints'> & {
  behavior?: Partial<ToolBehavior>;
  /** Defaults to a `timeout_ms` of `PRESET_TIMEOUT_MS`. */
  constraints?: DefineToolFields['constraints'];
};

/** The attempt budget of a preset tool that names none: long enough for a slow API, short enough to notice a hang. */
export const PRESET_TIMEOUT_MS = 30_000;

type DefineToolPreset = <
  TName extends string,
  TParams extends ToolParametersSchema,
  TOutput extends z.ZodType | undefined = undefined,
  TResult extends ToolHandlerResult<TOutput> = ToolHandlerResult<TOutput>,
>(
  options: DefineToolPresetOptions<TParams, TOutput, TName, TResult>,
) => DefinedTool<TParams, TOutput, TName, TResult>;

function preset(behavior: ToolBehavior): DefineToolPreset {
  return (options) =>
    defineToolOf({
      ...options,
      behavior: { ...behavior, ...options.behavior },
      constraints: options.constraints ?? { timeout_ms: PRESET_TIMEOUT_MS },
    });
}

/**
 * Defines a tool from zod schemas: builds its ToolIR (parameters via `z.toJSONSchema`, draft 2020-12, input side;
 * the output schema from the output side), checks it with `parseToolIR`, and types the handler's arguments as the
 * zod schema's output. Throws `ToolIRError` for an invalid definition, `invalid_schema` for an unrepresentable schema.
 *
 * The presets fill in `behavior` for the common kinds of tool, so the flags the gateway acts on (approvals,
 * retries, inline execution) are stated without spelling out each one:
 * - `defineTool.readonly`: a lookup. Reads only, idempotent (retried on transient failures), never needs approval.
 * - `defineTool.write`: changes state that can be restored; not idempotent unless `behavior: { idempotent: true }`.
 * - `defineTool.destructive`: may delete or overwrite for good; always needs a person's approval.
 *
 * `defineTool.text` defines a free-text tool: the handler gets the model's text, matched against an
 * optional regex grammar first.
 */
export const defineTool = Object.assign(defineToolOf, {
  text: defineTextTool,
  readonly: preset({
    readonly: true,
    destructive: false,
    idempotent: true,
    open_world: true,
    requires_approval: 'never',
  }),
  write: preset({
    readonly: false,
    destructive: false,
    idempotent: false,
    open_world: true,
    requires_approval: 'never',
  }),
  destructive: preset({
    readonly: false,
    destructive: true,
    idempotent: false,
    open_world: true,
    requires_approval: 'always',
  }),
});
