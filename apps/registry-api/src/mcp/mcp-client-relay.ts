import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitResultSchema,
  ErrorCode,
  LoggingLevelSchema,
  ListRootsResultSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ServerRequestSchema,
  type ClientCapabilities,
  type LoggingLevel,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import {
  isRelayedRequest,
  type RelayedAnswer,
  type RelayedCapabilities,
  type RelayedMessage,
} from '@toolgate/engine';
import type { RelayedClient } from '@toolgate/gateway';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What of a client's declared capabilities Toolgate relays to upstream servers. */
export function relayedCapabilitiesOf(
  capabilities: ClientCapabilities | undefined,
): RelayedCapabilities {
  return {
    ...(capabilities?.sampling === undefined ? {} : { sampling: capabilities.sampling }),
    ...(capabilities?.elicitation === undefined ? {} : { elicitation: capabilities.elicitation }),
    // Without listChanged: the client's notifications/roots/list_changed are not passed upstream.
    ...(capabilities?.roots === undefined ? {} : { roots: {} }),
  };
}

/**
 * The log level a session's client asked for with `logging/setLevel` (MCP: the server sends
 * messages at that level and above; all of them until it asks).
 */
export class SessionLogLevel {
  private level: LoggingLevel | undefined;

  set(level: LoggingLevel): void {
    this.level = level;
  }

  passes(level: LoggingLevel): boolean {
    if (this.level === undefined) return true;
    const severity = LoggingLevelSchema.options;
    return severity.indexOf(level) >= severity.indexOf(this.level);
  }
}

function failed(code: number, message: string, data?: unknown): RelayedAnswer {
  return { error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/** The client's JSON-RPC error as it sent it, without the SDK's "MCP error <code>: " prefix. */
function answerOfError(error: unknown): RelayedAnswer {
  if (error instanceof McpError) {
    return failed(error.code, error.message.replace(/^MCP error -?\d+: /, ''), error.data);
  }
  return failed(ErrorCode.InternalError, 'The client did not answer.');
}

/**
 * The client end of a `tools/call`'s relay: the upstream's requests go to the client on the
 * request's own stream (so they arrive while the client waits for the result) and are checked
 * against the MCP schema first, as they come from a server Toolgate does not control; log
 * messages go the same way, at the session's level.
 */
export function relayedClientOf(extra: Extra, logLevel: SessionLogLevel): RelayedClient {
  return {
    request: async (message: RelayedMessage, { signal, deadlineAt }) => {
      const request = ServerRequestSchema.safeParse({
        method: message.method,
        params: message.params ?? {},
      });
      if (!isRelayedRequest(message.method) || !request.success) {
        return failed(ErrorCode.InvalidParams, `The upstream's ${message.method} is not valid MCP.`);
      }
      const resultSchema =
        message.method === 'roots/list'
          ? ListRootsResultSchema
          : message.method === 'elicitation/create'
            ? ElicitResultSchema
            : message.params?.['tools'] === undefined
              ? CreateMessageResultSchema
              : CreateMessageResultWithToolsSchema;
      try {
        const result = await extra.sendRequest(request.data, resultSchema, {
          signal: AbortSignal.any([signal, extra.signal]),
          timeout: Math.max(1, deadlineAt - Date.now()),
        });
        return { result };
      } catch (error) {
        return answerOfError(error);
      }
    },
    notify: (message: RelayedMessage) => {
      const notification = LoggingMessageNotificationSchema.safeParse({
        method: message.method,
        params: message.params,
      });
      if (!notification.success || !logLevel.passes(notification.data.params.level)) return;
      extra.sendNotification(notification.data).catch(() => undefined);
    },
  };
}
