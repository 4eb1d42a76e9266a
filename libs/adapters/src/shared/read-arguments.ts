import { isRecord } from '@toolgate/toolir';
import type { ToolIR } from '@toolgate/toolir';
import { InvalidToolArgumentsError } from './adapter-error';
import { dropStrictNulls } from './json-schema/drop-strict-nulls';
import type { Provider } from './provider';
import { safeParseJson } from './safe-parse-json';
import { isCutJson } from '../stream/is-cut-json';

/** Where the arguments text came from, for the error that carries it. */
export interface ArgumentsSource {
  provider: Provider;
  path: string;
  callId: string;
  name: string;
  /** The ToolIR of the called tool, when known. */
  tool?: ToolIR | undefined;
}

/**
 * Parses a call's `arguments` text into an object: `""` is `{}` for a tool that requires nothing
 * (OpenAI sends it for parameterless tools); anything that is not a JSON object becomes an
 * InvalidToolArgumentsError carrying the raw text, never a SyntaxError.
 */
export function readArgumentsText(
  text: string,
  source: ArgumentsSource,
): Record<string, unknown> | InvalidToolArgumentsError {
  const details = {
    provider: source.provider,
    path: source.path,
    callId: source.callId,
    name: source.name,
    rawArguments: text,
  };
  if (text.trim() === '') {
    const required = source.tool?.parameters['required'];
    if (!Array.isArray(required) || required.length === 0) return {};
    return new InvalidToolArgumentsError(
      'empty arguments for a tool with required parameters',
      details,
    );
  }
  const parsed = safeParseJson(text);
  if (!parsed.ok) {
    const cut = isCutJson(text);
    return new InvalidToolArgumentsError(
      cut
        ? `arguments are cut off (the output ended inside them): ${parsed.error.message}`
        : `arguments are not valid JSON: ${parsed.error.message}`,
      {
        ...details,
        ...(parsed.error.position === undefined ? {} : { position: parsed.error.position }),
        ...(cut ? { cut: true as const } : {}),
      },
    );
  }
  if (!isRecord(parsed.value))
    return new InvalidToolArgumentsError('arguments must be a JSON object', details);
  return parsed.value;
}

/** Removes strict-mode nulls for optional properties, when the tool is known. */
export function undoStrictNulls(
  args: Record<string, unknown>,
  tool: ToolIR | undefined,
): Record<string, unknown> {
  if (tool === undefined) return args;
  const cleaned = dropStrictNulls(args, tool.parameters, tool.parameters);
  return isRecord(cleaned) ? cleaned : args;
}
