/** One JSON-RPC request or notification an upstream MCP server sends its client during a call. */
export interface RelayedMessage {
  method: string;
  params?: Record<string, unknown>;
}

/** What the calling client answered: its result, or its JSON-RPC error, passed upstream as it is. */
export type RelayedAnswer =
  | { result: Record<string, unknown> }
  | { error: { code: number; message: string; data?: unknown } };

/**
 * The client capabilities an upstream may use through a relay, as the calling client declared
 * them (MCP `ClientCapabilities` members): the gateway declares the same ones upstream.
 */
export interface RelayedCapabilities {
  /** `sampling/createMessage`: the caller's client runs an LLM completion for the upstream. */
  sampling?: Record<string, unknown> | undefined;
  /** `elicitation/create`: the caller's client asks its user (`form` and/or `url` modes). */
  elicitation?: Record<string, unknown> | undefined;
  /** `roots/list`: the caller's client names the directories and files the upstream may use. */
  roots?: Record<string, unknown> | undefined;
}

/** The server-to-client requests the gateway relays, each with the capability it needs. */
export const RELAYED_REQUESTS = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
} as const satisfies Record<string, keyof RelayedCapabilities>;

/** The server-to-client notifications the gateway relays (progress has its own path). */
export const RELAYED_NOTIFICATIONS: readonly string[] = ['notifications/message'];

/** A relayed request's method. */
export type RelayedRequestMethod = keyof typeof RELAYED_REQUESTS;

/** Whether `method` is a request the gateway relays. */
export function isRelayedRequest(method: string): method is RelayedRequestMethod {
  return Object.hasOwn(RELAYED_REQUESTS, method);
}

/**
 * The way from an upstream MCP server back to the client that made the call: the `mcp` executor
 * passes the upstream's `sampling/createMessage`, `elicitation/create` and `roots/list` requests
 * and its log messages through it, and the client's answer back upstream. A call without one (a REST call, a
 * client without a session) refuses such requests at once with a JSON-RPC error.
 */
export interface McpClientRelay {
  /** What the calling client declared that the gateway relays; declared upstream as its own. */
  readonly capabilities: RelayedCapabilities;
  /**
   * Asks the calling client and resolves with its answer; never rejects: a client that is gone, a
   * deadline passed (`deadlineAt`, epoch ms) or an aborted `signal` are error answers.
   */
  request(
    message: RelayedMessage,
    options: { signal: AbortSignal; deadlineAt: number },
  ): Promise<RelayedAnswer>;
  /** Passes a notification on; best effort, like every notification. */
  notify(message: RelayedMessage): void;
}
