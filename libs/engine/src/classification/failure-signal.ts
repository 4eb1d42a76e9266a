/** What an executor or a pipeline step knows about a failure, before classification decides what it means. */
export interface FailureSignal {
  /** A code the failing side chose, e.g. `tool_error`, `response_too_large`, `invalid_arguments`. */
  code?: string;
  /** The HTTP status of an upstream answer. */
  http_status?: number;
  /** A Node or undici network error code, e.g. `ECONNRESET`. */
  network_code?: string;
  /** The attempt ran out of its `timeout_ms`. */
  timeout?: boolean;
  /** The attempt was cancelled by the caller (not by the timeout). */
  aborted?: boolean;
  /** How long the upstream asked us to wait before trying again (from `Retry-After`). */
  retry_after_ms?: number;
  /** What went wrong, in words; may be replaced by a generic message when the row says it is not user visible. */
  message: string;
  /**
   * The upstream's own words about the failure (scrubbed of credentials and capped by the executor):
   * told to the model even when the classification hides `message` behind a generic text.
   */
  upstream_message?: string;
  /** Structured data for the result's `error.details`. */
  details?: unknown;
}
