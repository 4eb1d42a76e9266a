import { ToolgateError, type Issue } from '@toolgate/toolir';
import type { Provider } from './provider';

/** Where and in which wire format a payload could not be read or written. */
export interface AdapterErrorDetails {
  /** The wire format whose payload was being read or written. */
  provider: Provider;
  /** JSON Pointer into the payload (or tool list) where the problem is; `/` for the whole payload. */
  path: string;
  /** Every problem found, as {path, message} (the first one is `path`), when there are several. */
  issues?: Issue[];
  /** Extra data for the caller, e.g. the raw argument text of a call. */
  [key: string]: unknown;
}

/** The codes an adapter raises: a malformed payload, unparseable arguments, or two tools sharing a wire name. */
export type AdapterErrorCode = 'adapter_error' | 'invalid_json' | 'name_collision';

/**
 * The one error every adapter throws for input it cannot map: a malformed provider payload,
 * unparseable arguments, or tool names that collide on the wire. Never a TypeError.
 */
export class AdapterError extends ToolgateError<AdapterErrorCode> {
  // Narrower than the table's schema for these codes: an adapter always says where, in which wire format.
  declare readonly details: AdapterErrorDetails;

  constructor(
    message: string,
    details: AdapterErrorDetails,
    options: { code?: AdapterErrorCode; cause?: unknown } = {},
  ) {
    super(options.code ?? 'adapter_error', `${details.provider}: ${message} (at ${details.path})`, {
      details,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }

  /** JSON Pointer to the offending part of the payload. */
  get path(): string {
    return this.details.path;
  }

  /** The wire format being read or written. */
  get provider(): Provider | undefined {
    return this.details.provider;
  }
}

/** What an unparseable `arguments` string was: enough to answer the model with an `invalid_arguments` result. */
export interface InvalidToolArgumentsDetails extends AdapterErrorDetails {
  /** The provider's id of the call whose arguments failed to parse. */
  callId: string;
  /** The tool name (mapped back to the ToolIR name when the tools were given). */
  name: string;
  /** The argument text exactly as the model produced it. */
  rawArguments: string;
  /** Character offset of the syntax error, when the parser reports one. */
  position?: number;
  /**
   * The text is an unfinished JSON document, not a malformed one: the output ended inside it (the
   * model hit its token limit). Such a call can be repaired (`repairCutArguments`).
   */
  cut?: true;
}

/** A call whose `arguments` text is not a JSON object: carries the raw text so the model can be told to fix it. */
export class InvalidToolArgumentsError extends AdapterError {
  declare readonly details: InvalidToolArgumentsDetails;

  constructor(message: string, details: InvalidToolArgumentsDetails) {
    super(message, details, { code: 'invalid_json' });
  }
}
