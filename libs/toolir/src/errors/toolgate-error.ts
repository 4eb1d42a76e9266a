import {
  ERROR_CODES,
  THROWN_ERROR_CODES,
  type ErrorDetails,
  type ThrownErrorCode,
} from './error-codes';

const marker = Symbol.for('toolgate.error');

/** Every stable error code a Toolgate library can raise (the table's `thrown` codes); callers branch on these, never on messages. */
export const TOOLGATE_ERROR_CODES: readonly ToolgateErrorCode[] = THROWN_ERROR_CODES;

export type ToolgateErrorCode = ThrownErrorCode;

export interface ToolgateErrorOptions<TCode extends ToolgateErrorCode = ToolgateErrorCode> {
  details?: ErrorDetails<TCode>;
  /** Whether repeating the operation can succeed; the table's `retryable` for the code unless given. */
  retryable?: boolean;
  cause?: unknown;
}

/**
 * The one error type of the Toolgate libraries: a stable `code`, structured `details` (typed by
 * the code, from the table of error codes), and whether repeating the same operation can succeed.
 */
export class ToolgateError<TCode extends ToolgateErrorCode = ToolgateErrorCode> extends Error {
  readonly [marker] = true;
  readonly code: TCode;
  readonly details: ErrorDetails<TCode> | undefined;
  readonly retryable: boolean;

  constructor(code: TCode, message: string, options: ToolgateErrorOptions<TCode> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
  }

  /**
   * Whether the error has `code`; narrows it so `details` has that code's type (a class instance
   * is not a union, so comparing `error.code` alone cannot).
   */
  hasCode<TKnown extends TCode>(code: TKnown): this is ToolgateError<TKnown> {
    return this.code === code;
  }

  /** True for any ToolgateError, also one created by another copy of this package. */
  static isInstance(value: unknown): value is ToolgateError {
    return typeof value === 'object' && value !== null && marker in value;
  }

  toJSON(): {
    code: TCode;
    message: string;
    details?: ErrorDetails<TCode>;
    retryable: boolean;
  } {
    return {
      code: this.code,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
      retryable: this.retryable,
    };
  }
}

/** Turns anything thrown into a ToolgateError; unknown failures become `internal` and keep their stack. */
export function toToolgateError(error: unknown): ToolgateError {
  if (ToolgateError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const wrapped = new ToolgateError('internal', message, { cause: error });
  if (error instanceof Error && error.stack) wrapped.stack = error.stack;
  return wrapped;
}

/** One problem found in an input, addressed by a JSON Pointer-like path. */
export interface Issue {
  path: string;
  message: string;
}
