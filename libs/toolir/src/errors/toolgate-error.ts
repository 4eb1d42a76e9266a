const marker = Symbol.for('toolgate.error');

/** Every stable error code a Toolgate library can raise; callers branch on these, never on messages. */
export const TOOLGATE_ERROR_CODES = [
  'invalid_tool_ir',
  'invalid_schema',
  'unsupported_schema',
  'invalid_arguments',
  'incomplete_arguments',
  'invalid_version',
  'version_not_found',
  'version_sunset',
  'adapter_error',
  'name_collision',
  'invalid_json',
  // Local client failures (the SDK): thrown to the caller, never serialized.
  'api_error',
  'network_error',
  'timeout',
  'invalid_response',
  'aborted',
  'invalid_options',
  'internal',
] as const;

export type ToolgateErrorCode = (typeof TOOLGATE_ERROR_CODES)[number];

export interface ToolgateErrorOptions<TDetails> {
  details?: TDetails;
  retryable?: boolean;
  cause?: unknown;
}

/**
 * The one error type of the Toolgate libraries: a stable `code`, structured `details`,
 * and whether repeating the same operation can succeed.
 */
export class ToolgateError<TDetails = unknown> extends Error {
  readonly [marker] = true;
  readonly code: ToolgateErrorCode;
  readonly details: TDetails | undefined;
  readonly retryable: boolean;

  constructor(
    code: ToolgateErrorCode,
    message: string,
    options: ToolgateErrorOptions<TDetails> = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
    this.retryable = options.retryable ?? false;
  }

  /** True for any ToolgateError, also one created by another copy of this package. */
  static isInstance(value: unknown): value is ToolgateError {
    return typeof value === 'object' && value !== null && marker in value;
  }

  toJSON(): { code: ToolgateErrorCode; message: string; details?: TDetails; retryable: boolean } {
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
