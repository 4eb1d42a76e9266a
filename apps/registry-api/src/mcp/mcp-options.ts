import { z } from 'zod';
import { MAX_WAIT_MS } from '../calls/calls.dto';

/** Where the MCP endpoint is mounted (outside the `/v1` prefix, as MCP clients expect one URL). */
export const MCP_ROUTE = 'mcp';

/** Tools per `tools/list` page; MCP clients follow `nextCursor` until it is absent. */
export const MCP_PAGE_SIZE = 50;

/** Header naming the conversation a call belongs to (a stateless request has no session to use). */
export const MCP_CONVERSATION_HEADER = 'x-toolgate-conversation-id';

/**
 * `_meta` keys of the MCP face: one the client may send, two it gets back with a pending call, and
 * the deprecation of the version that serves a call or a listed tool.
 */
export const MCP_META = {
  idempotencyKey: 'toolgate/idempotency_key',
  callId: 'toolgate/call_id',
  approvalId: 'toolgate/approval_id',
  deprecation: 'toolgate/deprecation',
  /** A `Cache-Control` value for the call, as the REST header: `no-cache` skips the result cache. */
  cacheControl: 'toolgate/cache_control',
} as const;

/** `_meta` key by which a `tools/call` asks to wait for a pending approval, in ms. */
export const MCP_APPROVAL_WAIT_META = 'toolgate/approval_wait_ms';

/** Nest injection token of the MCP face's `McpOptions`. */
export const MCP_OPTIONS = Symbol('toolgate.mcp-options');

/** How the MCP face behaves where the protocol leaves the server a choice. */
export interface McpOptions {
  /** A session without requests and without an open GET stream for this long is closed, in ms. */
  sessionIdleMs: number;
  /** Most sessions held by this replica at once; initialize beyond it gets a 503. */
  maxSessions: number;
  /**
   * How long a `tools/call` that needs approval waits for a person before answering, in ms
   * (0: answer at once with an `isError` result naming the approval). A call may ask for another
   * wait with `_meta["toolgate/approval_wait_ms"]`, up to the gateway's longest wait.
   */
  approvalWaitMs: number;
  /**
   * How often a replica with sessions reads the audit chain for catalog changes, in ms. Release
   * changes arrive at once (in-process, or by Postgres NOTIFY from another replica); publishing,
   * deprecating and creating tools are found by this poll.
   */
  catalogPollMs: number;
}

export const DEFAULT_MCP_OPTIONS: McpOptions = {
  sessionIdleMs: 30 * 60_000,
  maxSessions: 10_000,
  approvalWaitMs: 0,
  catalogPollMs: 1_000,
};

const McpEnvSchema = z.object({
  MCP_SESSION_IDLE_MS: z.coerce.number().int().min(1_000).max(86_400_000).optional(),
  MCP_MAX_SESSIONS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  MCP_APPROVAL_WAIT_MS: z.coerce.number().int().min(0).max(MAX_WAIT_MS).optional(),
  MCP_CATALOG_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
});

/** Thrown at start when an `MCP_*` variable is invalid; lists every bad one. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

/** The MCP options from `MCP_*` environment variables over the defaults (blank counts as unset). */
export function loadMcpOptions(
  env: Readonly<Record<string, string | undefined>>,
  overrides: Partial<McpOptions> = {},
): McpOptions {
  const blankless = (value: string | undefined) =>
    value === undefined || value.trim() === '' ? undefined : value;
  const parsed = McpEnvSchema.safeParse({
    MCP_SESSION_IDLE_MS: blankless(env['MCP_SESSION_IDLE_MS']),
    MCP_MAX_SESSIONS: blankless(env['MCP_MAX_SESSIONS']),
    MCP_APPROVAL_WAIT_MS: blankless(env['MCP_APPROVAL_WAIT_MS']),
    MCP_CATALOG_POLL_MS: blankless(env['MCP_CATALOG_POLL_MS']),
  });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new McpConfigError(`Invalid MCP configuration:\n${lines.join('\n')}`);
  }
  return {
    sessionIdleMs: parsed.data.MCP_SESSION_IDLE_MS ?? DEFAULT_MCP_OPTIONS.sessionIdleMs,
    maxSessions: parsed.data.MCP_MAX_SESSIONS ?? DEFAULT_MCP_OPTIONS.maxSessions,
    approvalWaitMs: parsed.data.MCP_APPROVAL_WAIT_MS ?? DEFAULT_MCP_OPTIONS.approvalWaitMs,
    catalogPollMs: parsed.data.MCP_CATALOG_POLL_MS ?? DEFAULT_MCP_OPTIONS.catalogPollMs,
    ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)),
  };
}
