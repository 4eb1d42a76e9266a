import type { z } from 'zod';
import { TOOL_ID_NAMESPACE, uuidV5 } from '../hash/uuid-v5';
import { TEXT_INPUT_PROPERTY, textInputParameters } from '../input-format/text-input';
import { parseToolIR } from '../ir/parse-tool-ir';
import { TOOL_IR_SCHEMA_VERSION, type ToolGrammar, type ToolIR } from '../ir/tool-ir';
import type { ArgumentValidationResult } from '../validation/argument-error';
import { zodFromToolIR } from '../zod-from-ir/zod-from-tool-ir';
import type { DefineToolFields, ToolHandler } from './define-tool';

/** The arguments of a free-text tool on every wire: the text as the one string `input`. */
export interface TextToolArguments {
  input: string;
}

/** The input of `defineTool.text`: ToolIR fields, an optional grammar and a handler of the text. */
export type DefineTextToolOptions<TName extends string, TResult> = Omit<
  DefineToolFields,
  'input_format'
> & {
  /** Kept as a literal type, so loops can type each tool's calls and results by name. */
  name: TName;
  /**
   * Constrains the text: `regex` (RE2 syntax, the whole text must match; checked before the
   * handler runs) or `lark` (passed to the model, not checked: npm has no maintained Lark parser).
   */
  grammar?: ToolGrammar;
  /** Gets the text the model wrote, already matched against a regex grammar. */
  handler?: ToolHandler<string, TResult>;
};

/** A free-text tool defined in code: its ToolIR (`input_format` text), and its handler of the text. */
export interface DefinedTextTool<TName extends string = string, TResult = unknown> {
  readonly name: TName;
  /** The ToolIR (it passed `parseToolIR`): `input_format: {type: 'text', grammar?}`, the one-string parameters. */
  readonly tool: ToolIR;
  /** The arguments `{input}` as zod, with the grammar checked by the IR's validator (see `zodFromToolIR`). */
  readonly parameters: z.ZodType<TextToolArguments, TextToolArguments>;
  readonly handler?: ToolHandler<string, TResult>;
  /** Validates `{input}` (the grammar included) and gives the text, as the handler takes it. */
  readonly parseArguments: (args: unknown) => ArgumentValidationResult<string>;
}

/**
 * Defines a free-text tool (OpenAI's custom tools; a one-string function elsewhere): the model
 * writes one text, constrained by an optional grammar, and the handler gets that text. Throws
 * `ToolIRError` for an invalid definition, such as a regex RE2 cannot compile.
 */
export function defineTextTool<TName extends string, TResult = unknown>(
  options: DefineTextToolOptions<TName, TResult>,
): DefinedTextTool<TName, TResult> {
  const { grammar, handler, id, version, ...fields } = options;
  const tool = parseToolIR({
    ...fields,
    schema_version: TOOL_IR_SCHEMA_VERSION,
    id: id ?? uuidV5(TOOL_ID_NAMESPACE, fields.name),
    version: version ?? '1.0.0',
    input_format: { type: 'text', ...(grammar === undefined ? {} : { grammar }) },
    parameters: textInputParameters(),
  });
  const { schema, parseArguments } = zodFromToolIR<TextToolArguments>(tool);
  return {
    name: options.name,
    tool,
    parameters: schema,
    ...(handler === undefined ? {} : { handler }),
    parseArguments: (args: unknown): ArgumentValidationResult<string> => {
      const parsed = parseArguments(args);
      return parsed.ok ? { ok: true, value: parsed.value[TEXT_INPUT_PROPERTY] } : parsed;
    },
  };
}
