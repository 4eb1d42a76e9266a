import type { ProblemCode, ProblemExtensions } from '@toolgate/toolir';

/** Every failure a service can report: a problem code of the table of error codes (`ERROR_CODES`). */
export type ToolExceptionCode = ProblemCode;

/** One problem with one input, addressed by a JSON Pointer into the request. */
export interface ProblemIssue {
  path: string;
  message: string;
}

export interface ToolExceptionOptions<TCode extends ProblemCode = ProblemCode> {
  issues?: ProblemIssue[];
  /** Extra members of the problem document (RFC 9457 extension members), as the table declares them for the code. */
  extensions?: ProblemExtensions<TCode>;
  /** Response headers the problem needs, e.g. `Link` to a successor version. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The one exception services throw; never an HTTP exception, so services stay transport-free. */
export class ToolException<TCode extends ProblemCode = ProblemCode> extends Error {
  override readonly name = 'ToolException';
  readonly issues: ProblemIssue[];
  readonly extensions: ProblemExtensions<TCode> | Record<string, never>;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: TCode,
    message: string,
    options: ToolExceptionOptions<TCode> = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.issues = options.issues ?? [];
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}
