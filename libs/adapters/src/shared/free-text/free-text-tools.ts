import {
  grammarOf,
  TEXT_INPUT_PROPERTY,
  textInputParameters,
  type ToolCallIR,
  type ToolGrammar,
  type ToolIR,
  type ToolResultIR,
} from '@toolgate/toolir';
import type { ToolReporter } from '../downgrade-report';

/** What tells whether a result answers a free-text call: the calls, or the tools by name. */
export interface FreeTextContext {
  calls?: readonly ToolCallIR[] | undefined;
  tools?: readonly ToolIR[] | undefined;
}

// A Lark grammar is shown to the model in full up to this length, then cut with a note.
const MAX_GRAMMAR_SUMMARY = 4_000;

/** A ToolCallIR of a free-text tool: the text as the `input` argument and as the raw text. */
export function makeTextCall(fields: {
  id: string;
  name: string;
  input: string;
  providerCallId?: string | undefined;
}): ToolCallIR {
  return {
    id: fields.id,
    name: fields.name,
    arguments: { [TEXT_INPUT_PROPERTY]: fields.input },
    raw_arguments: fields.input,
    input_format: 'text',
    ...(fields.providerCallId === undefined || fields.providerCallId === fields.id
      ? {}
      : { provider_call_id: fields.providerCallId }),
  };
}

/** The free text of a call: its `input` argument (a call read from a function wire has only that). */
export function textOfCall(call: ToolCallIR): string {
  const input = call.arguments[TEXT_INPUT_PROPERTY];
  if (typeof input === 'string') return input;
  return call.raw_arguments ?? '';
}

/** Whether a result answers a call of a free-text tool, by its call or, failing that, its tool. */
export function answersTextCall(result: ToolResultIR, context: FreeTextContext): boolean {
  const call = context.calls?.find(
    (candidate) => candidate.id === result.call_id || candidate.provider_call_id === result.call_id,
  );
  if (call !== undefined) return call.input_format === 'text';
  return context.tools?.find((tool) => tool.name === result.name)?.input_format?.type === 'text';
}

/** The `pattern` that requires a whole-input match of a regex grammar, when ECMA-262 reads it too. */
function anchoredPattern(definition: string): string | undefined {
  const pattern = `^(?:${definition})$`;
  try {
    // JSON Schema patterns are ECMA-262 (with `u`); RE2 syntax a JS engine refuses stays out.
    new RegExp(pattern, 'u');
    return pattern;
  } catch {
    return undefined;
  }
}

function grammarSummary(grammar: ToolGrammar | undefined): string {
  if (grammar === undefined) return 'The input, as free text.';
  if (grammar.syntax === 'regex')
    return `The input, as free text that must match this whole regular expression (RE2 syntax): ${grammar.definition}`;
  const shown =
    grammar.definition.length > MAX_GRAMMAR_SUMMARY
      ? `${grammar.definition.slice(0, MAX_GRAMMAR_SUMMARY)}\n… (${grammar.definition.length - MAX_GRAMMAR_SUMMARY} more characters)`
      : grammar.definition;
  return `The input, as free text that must follow this Lark grammar:\n${shown}`;
}

/**
 * A free-text tool as a function tool, for wires that have no free-text tools: one required
 * string parameter, `input`, whose description states the grammar and whose `pattern` is the
 * regex where JSON Schema can read it. Every step is a report entry; calls come back as
 * `{input: text}`, which is how the IR carries a free-text call anyway.
 */
export function asFunctionTool(tool: ToolIR, reporter: ToolReporter): ToolIR {
  const grammar = grammarOf(tool);
  const input: Record<string, unknown> = { type: 'string', description: grammarSummary(grammar) };
  reporter.note('/input_format', 'input_format', {
    action: 'rewritten',
    detail: `free text sent as a function with one string parameter "${TEXT_INPUT_PROPERTY}"; calls come back as that text`,
  });
  if (grammar?.syntax === 'regex') {
    const pattern = anchoredPattern(grammar.definition);
    if (pattern !== undefined) input['pattern'] = pattern;
    reporter.note('/input_format/grammar', 'grammar', {
      action: pattern === undefined ? 'moved_to_description' : 'rewritten',
      detail:
        pattern === undefined
          ? `the regex is not an ECMA-262 pattern: it is named in the description of "${TEXT_INPUT_PROPERTY}"; the gateway still matches it before the tool runs`
          : `the regex is the pattern of "${TEXT_INPUT_PROPERTY}" (and named in its description); the gateway matches it before the tool runs`,
    });
  }
  if (grammar?.syntax === 'lark') {
    reporter.note('/input_format/grammar', 'grammar', {
      action: 'moved_to_description',
      detail: `the Lark grammar is stated in the description of "${TEXT_INPUT_PROPERTY}"; nothing enforces it`,
    });
  }
  const parameters = textInputParameters();
  return { ...tool, parameters: { ...parameters, properties: { [TEXT_INPUT_PROPERTY]: input } } };
}
