import { ToolgateError } from '@toolgate/toolir';

const marker = Symbol.for('toolgate.sdk-error');

/** Every code an SDK failure carries; callers branch on these, never on messages. */
export const TOOLGATE_SDK_ERROR_CODES = [
  'api_error',
  'network_error',
  'timeout',
  'invalid_response',
  'aborted',
  'invalid_options',
] as const;

/** A stable code of a local SDK failure (thrown, never serialized). */
export type ToolgateSdkErrorCode = (typeof TOOLGATE_SDK_ERROR_CODES)[number];

/** Options every SDK error takes. */
export interface ToolgateSdkErrorOptions {
  /** Whether repeating the same operation may succeed. */
  retryable?: boolean;
  cause?: unknown;
}

/**
 * The base of every error the SDK throws: a ToolgateError (so one `isInstance` check catches every
 * Toolgate failure) whose code is one of the SDK's transport codes.
 */
export class ToolgateSdkError extends ToolgateError {
  readonly [marker] = true;
  declare readonly code: ToolgateSdkErrorCode;

  constructor(code: ToolgateSdkErrorCode, message: string, options: ToolgateSdkErrorOptions = {}) {
    super(code, message, options);
  }

  /** True for any SDK error, also one created by another copy of this package. */
  static override isInstance(value: unknown): value is ToolgateSdkError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/** One issue of a problem document (`errors` member), as the gateway writes it. */
export interface ProblemIssue {
  path?: string | undefined;
  message?: string | undefined;
  [extension: string]: unknown;
}

/** What the gateway said about a failed request: an RFC 9457 problem document, as far as it sent one. */
export interface ProblemFields {
  /** A URI naming the problem type (RFC 9457 §3.1.1). */
  type?: string;
  /** A short summary of the problem type. */
  title?: string;
  /** What went wrong with this request. */
  detail?: string;
  /** The gateway's stable problem code, when it sends one. */
  problemCode?: string;
  /** Per-field issues (`errors` extension member). */
  errors?: ProblemIssue[];
  /** The whole problem document, extension members included. */
  problem?: Record<string, unknown>;
}

/** The gateway answered with an HTTP error status; the problem document's fields are copied onto the error. */
export class ToolgateApiError extends ToolgateSdkError {
  /** The HTTP status code. */
  readonly status: number;
  readonly type: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly problemCode: string | undefined;
  readonly errors: ProblemIssue[];
  readonly problem: Record<string, unknown> | undefined;
  /** The delay the server asked for with `Retry-After`, in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(
    status: number,
    fields: ProblemFields & { retryAfterMs?: number; retryable?: boolean },
    options: { cause?: unknown } = {},
  ) {
    const summary = fields.detail ?? fields.title ?? `HTTP ${status}`;
    super('api_error', `Toolgate API error ${status}: ${summary}`, {
      retryable: fields.retryable ?? false,
      cause: options.cause,
    });
    this.status = status;
    this.type = fields.type;
    this.title = fields.title;
    this.detail = fields.detail;
    this.problemCode = fields.problemCode;
    this.errors = fields.errors ?? [];
    this.problem = fields.problem;
    this.retryAfterMs = fields.retryAfterMs;
  }
}

/** The request never got an HTTP answer (DNS, refused connection, reset, body cut off). */
export class ToolgateNetworkError extends ToolgateSdkError {
  constructor(message: string, options: ToolgateSdkErrorOptions = {}) {
    super('network_error', message, { retryable: true, ...options });
  }
}

/** A request or a wait ran past its time budget. */
export class ToolgateTimeoutError extends ToolgateSdkError {
  /** The budget that ran out, in milliseconds. */
  readonly timeoutMs: number;

  constructor(message: string, options: ToolgateSdkErrorOptions & { timeoutMs: number }) {
    super('timeout', message, { retryable: true, ...options });
    this.timeoutMs = options.timeoutMs;
  }
}

/** The gateway answered with a body that does not match the contract in `gateway-contract.ts`. */
export class ToolgateInvalidResponseError extends ToolgateSdkError {
  /** Where the body broke the contract, e.g. `/tools: expected array`. */
  readonly issues: string[];

  constructor(message: string, options: ToolgateSdkErrorOptions & { issues?: string[] } = {}) {
    super('invalid_response', message, options);
    this.issues = options.issues ?? [];
  }
}
