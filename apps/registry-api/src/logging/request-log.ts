import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

/** What the request's log line reports besides method, path, status and time. */
export interface RequestOutcome {
  /** The problem code the client got (a refusal or a failure). */
  code?: string;
  /** The original error behind a failure: the client got a sanitized answer, the log gets this. */
  err?: unknown;
}

/** The request a piece of code runs for, where it has no FastifyRequest (MCP handlers inside the SDK). */
export interface RequestScope {
  requestId: string;
  log: FastifyBaseLogger;
  note(outcome: RequestOutcome): void;
}

const outcomes = new WeakMap<IncomingMessage, RequestOutcome>();
const scopes = new AsyncLocalStorage<RequestScope>();

/** Adds to what the request's one log line will say (the last code and error win). */
export function noteOutcome(request: FastifyRequest, outcome: RequestOutcome): void {
  const current = outcomes.get(request.raw);
  if (current !== undefined) Object.assign(current, outcome);
}

/**
 * Runs `work` (a hijacked reply's transport, e.g. MCP) so code deep inside it can reach the request's
 * id and log line through {@link currentRequestScope}, including after it hands work to promises.
 */
export function runInRequestScope<T>(request: FastifyRequest, work: () => T): T {
  return scopes.run(
    {
      requestId: String(request.id),
      log: request.log,
      note: (outcome) => noteOutcome(request, outcome),
    },
    work,
  );
}

export function currentRequestScope(): RequestScope | undefined {
  return scopes.getStore();
}

/**
 * One log line per request, written when the response is done (also for hijacked replies, which
 * Fastify's own request logging never finishes, and for clients that hang up). Fastify's two lines
 * (`incoming request`, `request completed`) are turned off in create-app, so this is the only one:
 * info for answers, error (with the original error) for failures, so LOG_LEVEL=warn keeps only
 * failures.
 */
export function installRequestLog(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    const outcome: RequestOutcome = {};
    outcomes.set(request.raw, outcome);
    reply.raw.once('close', () => {
      const statusCode = reply.raw.statusCode;
      const fields = {
        req: { method: request.method, url: request.url },
        res: { statusCode },
        responseTime: reply.elapsedTime,
        ...(reply.raw.writableFinished ? {} : { aborted: true }),
        ...(outcome.code === undefined ? {} : { code: outcome.code }),
        ...(outcome.err === undefined ? {} : { err: outcome.err }),
      };
      if (statusCode >= 500 || outcome.err !== undefined) {
        request.log.error(fields, 'request failed');
      } else {
        request.log.info(fields, 'request completed');
      }
    });
  });
}
