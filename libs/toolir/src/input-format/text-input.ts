import { RE2JS } from 're2js';
import { ToolgateError, type Issue } from '../errors/toolgate-error';
import type { ToolGrammar, ToolInputFormat, ToolIR } from '../ir/tool-ir';
import { canonicalJson } from '../json/canonical-json';

/** The one argument that carries a free-text tool's input, on every wire that has no free-text tools. */
export const TEXT_INPUT_PROPERTY = 'input';

/** The `parameters` of every free-text tool: one required string, `input`, and nothing else. */
export function textInputParameters(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { [TEXT_INPUT_PROPERTY]: { type: 'string' } },
    required: [TEXT_INPUT_PROPERTY],
    additionalProperties: false,
  };
}

const TEXT_INPUT_PARAMETERS_JSON = canonicalJson(textInputParameters());

/** What these helpers need of a tool: its input format. */
export type WithInputFormat = Pick<ToolIR, 'input_format'>;

/** Whether the tool takes one free text (an OpenAI custom tool) rather than JSON arguments. */
export function isTextInput(tool: WithInputFormat): boolean {
  return tool.input_format?.type === 'text';
}

/** The grammar that constrains a free-text tool's input, if it has one. */
export function grammarOf(tool: WithInputFormat): ToolGrammar | undefined {
  const format: ToolInputFormat | undefined = tool.input_format;
  return format?.type === 'text' ? format.grammar : undefined;
}

/**
 * How the gateway checks a free-text input before the tool runs: `regex` (matched with a
 * linear-time RE2 engine, so no input can make it backtrack for ever), `not_checked` (a Lark
 * grammar: npm has no maintained Lark parser for JavaScript, so the input runs as the model wrote
 * it, and the call's record says so); undefined for JSON tools and free text without a grammar.
 */
export type GrammarCheck = 'regex' | 'not_checked';

/** The check a tool's free-text input gets (see `GrammarCheck`). */
export function grammarCheckOf(tool: WithInputFormat): GrammarCheck | undefined {
  const grammar = grammarOf(tool);
  if (grammar === undefined) return undefined;
  return grammar.syntax === 'regex' ? 'regex' : 'not_checked';
}

type CompiledRegex = { ok: true; regex: RE2JS } | { ok: false; message: string };

function tryCompileRegex(definition: string): CompiledRegex {
  try {
    return { ok: true, regex: RE2JS.compile(definition) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Compiles a regex grammar with RE2 (re2js: linear-time matching, no backreferences or
 * lookaround, as OpenAI's own regex grammars). Throws `invalid_schema` naming the syntax problem.
 */
export function compileRegexGrammar(definition: string): RE2JS {
  const compiled = tryCompileRegex(definition);
  if (compiled.ok) return compiled.regex;
  throw new ToolgateError(
    'invalid_schema',
    `The regex grammar does not compile: ${compiled.message}`,
    {
      details: {
        issues: [{ path: '/input_format/grammar/definition', message: compiled.message }],
      },
    },
  );
}

/** Cross-field problems of a free-text tool: its parameters must be the one-string schema, its regex must compile. */
export function textInputIssues(
  tool: Partial<Pick<ToolIR, 'input_format' | 'parameters'>>,
): Issue[] {
  if (tool.input_format?.type !== 'text') return [];
  const issues: Issue[] = [];
  if (
    tool.parameters !== undefined &&
    canonicalJson(tool.parameters) !== TEXT_INPUT_PARAMETERS_JSON
  ) {
    issues.push({
      path: '/parameters',
      message: `a free-text tool (input_format.type "text") takes its input as one string: parameters must be ${TEXT_INPUT_PARAMETERS_JSON}`,
    });
  }
  const grammar = tool.input_format.grammar;
  if (grammar?.syntax === 'regex') {
    const compiled = tryCompileRegex(grammar.definition);
    if (!compiled.ok) {
      issues.push({
        path: '/input_format/grammar/definition',
        message: `is not a valid RE2 regular expression: ${compiled.message}`,
      });
    }
  }
  return issues;
}
