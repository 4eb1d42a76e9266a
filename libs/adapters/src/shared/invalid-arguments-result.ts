import type { ToolResultIR } from '@toolgate/toolir';
import type { InvalidToolArgumentsError } from './adapter-error';

/**
 * The result to send back for a call whose arguments were not a JSON object: an
 * `invalid_arguments` error quoting the raw text, so the model can fix its call; for text that was
 * cut off (the output ended inside it), `incompleteArgumentsResult`. Not retryable: the same
 * arguments would fail again; only a corrected call can succeed.
 */
export function invalidArgumentsResult(error: InvalidToolArgumentsError): ToolResultIR {
  if (error.details.cut === true) {
    return incompleteArgumentsResult(
      { call_id: error.details.callId, name: error.details.name },
      { received: error.details.rawArguments.length },
    );
  }
  return {
    call_id: error.details.callId,
    name: error.details.name,
    ok: false,
    error: {
      code: 'invalid_arguments',
      message: `The arguments are not a valid JSON object (${error.message}). Send the call again with valid JSON arguments.`,
      retryable: false,
      details: {
        raw_arguments: error.details.rawArguments,
        ...(error.details.position === undefined ? {} : { position: error.details.position }),
      },
    },
  };
}

/**
 * The result to send back for a call whose arguments were cut off and not repaired: an
 * `incomplete_arguments` error saying how much arrived and, when a repair was tried, why it could
 * not complete them. Never retried by Toolgate: the model decides what to send instead.
 */
export function incompleteArgumentsResult(
  call: { call_id: string; name: string },
  cut: { received: number; reason?: string | undefined },
): ToolResultIR {
  const why =
    cut.reason === undefined ? '' : ` They cannot be completed unambiguously: ${cut.reason}.`;
  return {
    call_id: call.call_id,
    name: call.name,
    ok: false,
    error: {
      code: 'incomplete_arguments',
      message: `The arguments were cut off after ${cut.received} characters (the output ended inside them).${why} Send the whole call again, with shorter arguments if they were long.`,
      retryable: false,
      details: { received: cut.received },
    },
  };
}
