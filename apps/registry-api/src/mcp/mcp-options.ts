/** Where the MCP endpoint is mounted (outside the `/v1` prefix, as MCP clients expect one URL). */
export const MCP_ROUTE = 'mcp';

/** Tools per `tools/list` page; MCP clients follow `nextCursor` until it is absent. */
export const MCP_PAGE_SIZE = 50;

/** Header naming the conversation a call belongs to (stateless MCP has no session to use). */
export const MCP_CONVERSATION_HEADER = 'x-toolgate-conversation-id';

/** `_meta` keys of the MCP face: one the client may send, two it gets back with a pending call. */
export const MCP_META = {
  idempotencyKey: 'toolgate/idempotency_key',
  callId: 'toolgate/call_id',
  approvalId: 'toolgate/approval_id',
} as const;
