import type { ToolResultIR } from '@toolgate/toolir';
import type { InvalidToolArgumentsError } from './adapter-error';

/**
 * The result to send back for a call whose arguments were not a JSON object: an
 * `invalid_arguments` error quoting the raw text, so the model can fix its call. Not retryable:
 * the same arguments would fail again; only a corrected call can succeed.
 */
export function invalidArgumentsResult(error: InvalidToolArgumentsError): ToolResultIR {
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
