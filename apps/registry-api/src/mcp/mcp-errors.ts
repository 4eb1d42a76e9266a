import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { currentRequestScope } from '../logging/request-log';
import { INTERNAL_ERROR_MESSAGE, publicErrorOf, statusOf } from '../problem/problem-document';

// McpError writes its code into its message ("MCP error -32602: ..."); the wire carries it once.
const SDK_PREFIX = /^MCP error -?\d+: /;

/**
 * JSON-RPC codes whose messages the SDK or this server writes for the client (bad params, unknown
 * method, ...). Any other code, InternalError above all, is whatever an unexpected error said.
 */
const CLIENT_CODES = new Set<number>([
  ErrorCode.ParseError,
  ErrorCode.InvalidRequest,
  ErrorCode.MethodNotFound,
  ErrorCode.InvalidParams,
  ErrorCode.ConnectionClosed,
  ErrorCode.RequestTimeout,
  ErrorCode.UrlElicitationRequired,
]);

/** A JSON-RPC error as the SDK sends one from a handler: its `code`, `message` and `data` verbatim. */
export class McpWireError extends Error {
  override readonly name = 'McpWireError';

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The request id a failure is logged under; a fresh one outside any request (never expected). */
function correlation(): { requestId: string | undefined; note: (err: unknown) => void } {
  const scope = currentRequestScope();
  return {
    requestId: scope?.requestId,
    note: (err) => scope?.note({ code: 'internal', err }),
  };
}

function internalWireError(requestId: string | undefined): McpWireError {
  return new McpWireError(ErrorCode.InternalError, INTERNAL_ERROR_MESSAGE, {
    code: 'internal',
    ...(requestId === undefined ? {} : { request_id: requestId }),
  });
}

/**
 * What a handler's failure becomes on the wire, through the API's one sanitizer: an McpError keeps
 * its code and message (without the SDK's prefix); a ToolException its message, as InvalidParams
 * for a refusal (4xx) or InternalError; anything else is logged with the request id and answered
 * with the safe message and that id.
 */
export function toMcpWireError(error: unknown): McpWireError {
  if (error instanceof McpWireError) return error;
  if (error instanceof McpError) {
    return new McpWireError(error.code, error.message.replace(SDK_PREFIX, ''), error.data);
  }
  const { requestId, note } = correlation();
  const exposed = publicErrorOf(error);
  if (exposed.code === 'internal') {
    note(error);
    return internalWireError(requestId);
  }
  const code = statusOf(exposed.code) < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpWireError(code, exposed.message, {
    code: exposed.code,
    ...(requestId === undefined ? {} : { request_id: requestId }),
  });
}

function isSanitized(data: unknown): boolean {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { code?: unknown }).code === 'string'
  );
}

/**
 * Makes every request handler registered on the server from now on leave through
 * {@link toMcpWireError}. The handlers the SDK registers itself (initialize, ping) only fail with
 * McpErrors, which sanitizeOutgoing strips of their prefix.
 */
export function guardHandlers(server: Server): Server {
  const register = server.setRequestHandler.bind(server);
  const guardedRegister = (
    schema: Parameters<Server['setRequestHandler']>[0],
    handler: (...args: never[]) => unknown,
  ): void => {
    register(schema, (async (...args: never[]) => {
      try {
        return await handler(...args);
      } catch (error) {
        throw toMcpWireError(error);
      }
    }) as Parameters<Server['setRequestHandler']>[1]);
  };
  server.setRequestHandler = guardedRegister as Server['setRequestHandler'];
  return server;
}

/** Routes everything the transport sends through {@link sanitizeOutgoing} (wraps its `send`). */
export function sanitizeTransport<TTransport extends Transport>(transport: TTransport): TTransport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(sanitizeOutgoing(message), options);
  return transport;
}

/**
 * The last look at every message a transport sends, for errors the SDK raises outside this
 * server's handlers (its own validation wraps them, and reports a throwing schema as
 * InternalError with the thrown text): prefixes go, and an error of a code not written for
 * clients is replaced by the safe message, its text going to the request's log line.
 */
export function sanitizeOutgoing(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  const { error } = message;
  const text = error.message.replace(SDK_PREFIX, '');
  // Client codes carry messages written for clients; toMcpWireError's errors name their problem code.
  if (CLIENT_CODES.has(error.code) || isSanitized(error.data)) {
    return { ...message, error: { ...error, message: text } };
  }
  const { requestId, note } = correlation();
  note(new Error(`MCP error ${error.code}: ${text}`));
  const safe = internalWireError(requestId);
  return { ...message, error: { code: safe.code, message: safe.message, data: safe.data } };
}
