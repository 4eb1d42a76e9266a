import type { Problem, ProblemIssue, RunStatus } from '@toolgate/contract';
import { ToolgateError, type ErrorCodesOf, type ToolgateErrorCode } from '@toolgate/toolir';

export type { ProblemIssue };

const marker = Symbol.for('toolgate.sdk-error');

/**
 * A stable code of a local SDK failure (thrown, never serialized): the codes the table of error
 * codes has the SDK throw. Callers branch on these, never on messages.
 */
export type ToolgateSdkErrorCode = ToolgateErrorCode & ErrorCodesOf<'sdk'>;

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
export class ToolgateSdkError extends ToolgateError<ToolgateSdkErrorCode> {
  readonly [marker] = true;

  constructor(code: ToolgateSdkErrorCode, message: string, options: ToolgateSdkErrorOptions = {}) {
    super(code, message, options);
  }

  /** True for any SDK error, also one created by another copy of this package. */
  static override isInstance(value: unknown): value is ToolgateSdkError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/** What the gateway said about a failed request: an RFC 9457 problem document, as far as it sent one. */
export interface ProblemFields {
  /** A URI naming the problem type (RFC 9457 §3.1.1). */
  type?: string;
  /** A short summary of the problem type. */
  title?: string;
  /** What went wrong with this request. */
  detail?: string;
  /**
   * The gateway's stable problem code (`Problem['code']`); any other string when the body is not
   * a problem document of this contract (a proxy's, or a newer gateway's new code).
   */
  problemCode?: string;
  /** Per-input issues (`errors` member), each addressed by a JSON Pointer into the request. */
  errors?: ProblemIssue[];
  /** The whole problem document, extension members included; only when the body is one. */
  problem?: Problem;
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
  readonly problem: Problem | undefined;
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
  /** The runtime's system error code when it gave one: `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, ... */
  readonly systemCode: string | undefined;

  /** `cause` is the innermost error (the refused connection), not the runtime's generic wrapper. */
  constructor(
    message: string,
    options: ToolgateSdkErrorOptions & { systemCode?: string | undefined } = {},
  ) {
    const { systemCode, ...rest } = options;
    super('network_error', message, { retryable: true, ...rest });
    this.systemCode = systemCode;
  }
}

/** A request or a wait ran past its time budget. */
export class ToolgateTimeoutError extends ToolgateSdkError {
  /** The budget that ran out, in milliseconds. */
  readonly timeoutMs: number;
  /** The calls that had not finished when following them ran out of time (they go on in the gateway). */
  readonly callIds: readonly string[];

  constructor(
    message: string,
    options: ToolgateSdkErrorOptions & { timeoutMs: number; callIds?: readonly string[] },
  ) {
    const { callIds = [], ...rest } = options;
    super('timeout', message, { retryable: true, ...rest });
    this.timeoutMs = options.timeoutMs;
    this.callIds = callIds;
  }
}

/** The gateway answered with a status or body that the route's schemas in `@toolgate/contract` refuse. */
export class ToolgateInvalidResponseError extends ToolgateSdkError {
  /** Where the body broke the contract, e.g. `/tools: expected array`. */
  readonly issues: string[];

  constructor(message: string, options: ToolgateSdkErrorOptions & { issues?: string[] } = {}) {
    super('invalid_response', message, options);
    this.issues = options.issues ?? [];
  }
}

/** The durable run a loop drives has ended: it takes no further turn, so the loop cannot go on. */
export class ToolgateRunEndedError extends ToolgateSdkError {
  /** The run's id. */
  readonly runId: string;
  /** How it ended: `succeeded`, `failed` or `cancelled`. */
  readonly status: RunStatus;

  constructor(runId: string, status: RunStatus, options: { cause?: unknown } = {}) {
    super('run_ended', `the run ${runId} has ended (${status}) and takes no further turn`, {
      retryable: false,
      cause: options.cause,
    });
    this.runId = runId;
    this.status = status;
  }
}
