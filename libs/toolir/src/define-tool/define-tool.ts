import { z } from 'zod';
import { ToolgateError } from '../errors/toolgate-error';
import { TOOL_ID_NAMESPACE, uuidV5 } from '../hash/uuid-v5';
import { parseToolIR, toJsonPointer } from '../ir/parse-tool-ir';
import { mapSchema } from '../json-schema/walk-schema';
import {
  TOOL_IR_SCHEMA_VERSION,
  type JsonSchema,
  type ToolIR,
  type ToolIRInput,
} from '../ir/tool-ir';
import type { ArgumentError, ArgumentValidationResult } from '../validation/argument-error';

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
> = DefineToolFields & {
  parameters: TParams;
  outputSchema?: TOutput;
  handler?: ToolHandler<z.output<TParams>, ToolHandlerResult<TOutput>>;
};

/** A tool defined in code: its validated ToolIR, its zod schemas, and (when given) its typed handler. */
export interface DefinedTool<
  TParams extends ToolParametersSchema,
  TOutput extends z.ZodType | undefined = undefined,
> {
  /** The ToolIR (it passed `parseToolIR`), with JSON Schemas generated from the zod schemas. */
  readonly tool: ToolIR;
  readonly parameters: TParams;
  readonly outputSchema: TOutput;
  readonly handler?: ToolHandler<z.output<TParams>, ToolHandlerResult<TOutput>>;
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

function argumentErrorsFromZod(error: z.ZodError): ArgumentError[] {
  return error.issues.map((issue) => {
    const path = toJsonPointer(issue.path);
    return { path, keyword: issue.code, message: `${path} ${issue.message}` };
  });
}

/**
 * Defines a tool from zod schemas: builds its ToolIR (parameters via `z.toJSONSchema`, draft 2020-12, input side;
 * the output schema from the output side), checks it with `parseToolIR`, and types the handler's arguments as the
 * zod schema's output. Throws `ToolIRError` for an invalid definition, `invalid_schema` for an unrepresentable schema.
 */
export function defineTool<
  TParams extends ToolParametersSchema,
  TOutput extends z.ZodType | undefined = undefined,
>(options: DefineToolOptions<TParams, TOutput>): DefinedTool<TParams, TOutput> {
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
