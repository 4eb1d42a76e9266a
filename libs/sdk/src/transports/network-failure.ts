import { isRecord } from '@toolgate/toolir';

/** What the runtime said about a request that got no HTTP answer, beneath its generic wrapper. */
export interface NetworkFailure {
  /** The innermost error's message, e.g. `connect ECONNREFUSED 127.0.0.1:4000`. */
  message: string;
  /** The system error code when the runtime gave one (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, ...). */
  code: string | undefined;
  /** The innermost error: the one that names what failed. */
  cause: unknown;
}

const MAX_DEPTH = 8;

/**
 * Runtimes wrap connection failures: undici throws `TypeError('fetch failed')` whose `cause` is
 * the system error (an `AggregateError` of one per address when a name resolves to several).
 * The wrapper says nothing an operator can act on, so the innermost error is what is reported.
 */
export function networkFailureOf(error: unknown): NetworkFailure {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    const next = innerError(current);
    if (next === undefined) break;
    current = next;
  }
  const code =
    isRecord(current) && typeof current['code'] === 'string' ? current['code'] : undefined;
  const message =
    current instanceof Error && current.message !== ''
      ? current.message
      : (code ?? String(current));
  return { message, code, cause: current };
}

function innerError(error: unknown): unknown {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors[0];
  if (!isRecord(error)) return undefined;
  const cause = error['cause'];
  return cause instanceof Error || isRecord(cause) ? cause : undefined;
}
