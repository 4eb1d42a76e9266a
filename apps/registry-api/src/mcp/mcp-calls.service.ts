import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { getAdapter } from '@toolgate/adapters';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import type { Principal } from '../auth/principal';
import { CallEventBus } from '../calls/call-event-bus';
import { MAX_WAIT_MS, type CallSummaryDto } from '../calls/calls.dto';
import type { RelayedClient } from '@toolgate/gateway';
import { FINAL_CALL_STATUSES, type CallRow, type ClientRelayTarget } from '@toolgate/persistence';
import { CallsService, wireResultOf } from '../calls/calls.service';
import { GatewayHost } from '../calls/gateway-host';
import { ToolException } from '../problem/tool.exception';
import { MCP_META } from './mcp-options';

// How often a call held for approval is looked at while a client waits for the decision.
const APPROVAL_POLL_MS = 200;

// With an idempotency key the call id must not change between retries (it is part of the key).
const IDEMPOTENT_CALL_ID = 'mcp_call';

export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What one `tools/call` request brings besides the tool name and arguments. */
export interface McpCallContext {
  /** Aborted when the client cancels the request (`notifications/cancelled`). */
  signal: AbortSignal;
  conversationId: string | undefined;
  idempotencyKey: string | undefined;
  /** `refresh` when `_meta["toolgate/cache_control"]` asks for a fresh answer (`no-cache`). */
  cache?: 'refresh' | undefined;
  /** How long a call held for approval may wait for a person before the answer names the approval. */
  approvalWaitMs: number;
  /** Present when the client asked for progress (sent a `progressToken`). */
  onProgress?: (progress: McpProgress) => Promise<void>;
  /** Present in a session: where what the tool's upstream asks goes while the call runs. */
  relay?: { target: ClientRelayTarget; client: RelayedClient };
}

function textResult(text: string, meta?: Record<string, string>): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    isError: true,
    ...(meta === undefined ? {} : { _meta: meta }),
  };
}

/**
 * `tools/call` through the same path as POST /v1/calls: the MCP adapter reads the call, the calls
 * service records it (idempotency, tool version), the engine runs it (policy, approval gate, rate
 * limit, executor) and the stored result comes back as a `CallToolResult`. Tool failures, policy
 * denials and refused input are `isError: true` results the model can read, not JSON-RPC errors.
 */
@Injectable()
export class McpCallsService {
  private readonly logger = new Logger(McpCallsService.name);

  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(CallsService) private readonly calls: CallsService,
    @Inject(CallEventBus) private readonly bus: CallEventBus,
    @Inject(ApprovalsRepository) private readonly approvals: ApprovalsRepository,
    @Inject(GatewayHost) private readonly gateway: GatewayHost,
  ) {}

  async callTool(
    principal: Principal,
    params: { name: string; arguments: Record<string, unknown> },
    context: McpCallContext,
  ): Promise<CallToolResult> {
    const { relay } = context;
    // Followed before the call is dispatched, so its upstream's first request finds the client.
    const stopRelay =
      relay === undefined
        ? () => undefined
        : await this.gateway.clientRelays.follow(relay.target.relay_id, relay.client);
    try {
      return await this.runCall(principal, params, context);
    } finally {
      stopRelay();
    }
  }

  private async runCall(
    principal: Principal,
    params: { name: string; arguments: Record<string, unknown> },
    context: McpCallContext,
  ): Promise<CallToolResult> {
    // A JSON-RPC id is only unique per client connection, so it must not name the call: without
    // a key each request is a new call; with one, retries of the same key share the call.
    const callId =
      context.idempotencyKey === undefined ? `mcp_${randomUUID()}` : IDEMPOTENT_CALL_ID;
    let rowId: string;
    let deprecation: CallSummaryDto['deprecation'];
    try {
      const parsed = await this.calls.parseProviderPayload(principal, {
        provider: 'mcp',
        payload: { jsonrpc: '2.0', id: callId, method: 'tools/call', params },
      });
      // wait_ms 0: only record and dispatch here; following the call below forwards its progress.
      const submitted = await this.calls.submit(principal, {
        provider: 'mcp',
        calls: parsed.calls,
        conversationId: context.conversationId,
        waitMs: 0,
        idempotencyKey: context.idempotencyKey,
        cache: context.cache,
        ...(context.relay === undefined ? {} : { clientRelay: context.relay.target }),
      });
      const [summary] = submitted.body.calls;
      if (summary === undefined) throw new Error('a submitted tools/call recorded no call');
      rowId = summary.id;
      deprecation = summary.deprecation;
    } catch (error) {
      return this.refusal(error);
    }
    const row = await this.follow(principal, rowId, context);
    const result = await this.resultOf(row);
    // What the Deprecation / Sunset / Link headers tell a REST caller, for any outcome of the call.
    if (deprecation === undefined) return result;
    return { ...result, _meta: { ...result._meta, [MCP_META.deprecation]: deprecation } };
  }

  /** Waits for the call to settle, forwarding its progress and cancelling it when the client does. */
  private async follow(
    principal: Principal,
    rowId: string,
    context: McpCallContext,
  ): Promise<CallRow | undefined> {
    const { onProgress, signal } = context;
    let lastProgress = -Infinity;
    // Progress that arrives before this subscription (between dispatch and here) is not replayed;
    // MCP progress is advisory, the result is not affected.
    const unsubscribe =
      onProgress === undefined
        ? () => undefined
        : this.bus.subscribe(rowId, (event) => {
            // MCP wants progress to increase with every notification.
            if (event.type !== 'progress' || event.progress <= lastProgress) return;
            lastProgress = event.progress;
            onProgress({
              progress: event.progress,
              ...(event.total === undefined ? {} : { total: event.total }),
              ...(event.message === undefined ? {} : { message: event.message }),
            }).catch(() => undefined);
          });
    const cancel = () => {
      this.calls.cancel(principal, rowId).catch((error: unknown) => {
        // A conflict means the call already finished: there is nothing left to stop.
        if (error instanceof ToolException && error.code === 'conflict') return;
        this.logger.warn(`cancelling call ${rowId} failed: ${String(error)}`);
      });
    };
    signal.addEventListener('abort', cancel, { once: true });
    try {
      if (signal.aborted) cancel();
      // The longest wait POST /v1/calls allows; a call still open then is answered with its id.
      const [row] = await this.calls.waitForCalls([rowId], MAX_WAIT_MS);
      if (row?.status !== 'awaiting_approval' || context.approvalWaitMs <= 0) return row;
      return await this.awaitDecision(principal, row, context);
    } finally {
      signal.removeEventListener('abort', cancel);
      unsubscribe();
    }
  }

  /** Polls a call held for approval until a person decides and it finishes, or the wait ends. */
  private async awaitDecision(
    principal: Principal,
    held: CallRow,
    { approvalWaitMs, signal }: McpCallContext,
  ): Promise<CallRow> {
    const deadline = Date.now() + approvalWaitMs;
    let row = held;
    while (!FINAL_CALL_STATUSES.includes(row.status) && !signal.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await sleep(Math.min(APPROVAL_POLL_MS, left));
      row = await this.calls.require(principal, row.id);
      if (row.status === 'awaiting_approval') continue;
      // Approved: the call now runs, so wait for its outcome within what is left of the wait.
      const [settled] = await this.calls.waitForCalls([row.id], Math.max(0, deadline - Date.now()));
      row = settled ?? row;
    }
    return row;
  }

  private async resultOf(row: CallRow | undefined): Promise<CallToolResult> {
    if (row === undefined) throw new Error('a recorded call vanished');
    if (FINAL_CALL_STATUSES.includes(row.status)) {
      const [response] = getAdapter('mcp').resultsToWire([wireResultOf(row)]);
      // The adapter writes the 2025-11-25 CallToolResult; the SDK's schema types it for the server.
      return CallToolResultSchema.parse(response?.result);
    }
    if (row.status === 'awaiting_approval') {
      const approval = await this.approvals.findByCall(row.id);
      const approvalId = approval?.id ?? 'unknown';
      return textResult(
        `The call of ${row.toolName} awaits approval ${approvalId} (call ${row.id}). ` +
          'A person with the approvals:decide scope must approve it in the Toolgate console or ' +
          `with POST /v1/approvals/${approvalId}/decision; it runs then, and its result is at ` +
          `GET /v1/calls/${row.id}. Until then, do not retry the call.`,
        { [MCP_META.callId]: row.id, [MCP_META.approvalId]: approvalId },
      );
    }
    return textResult(
      `The call of ${row.toolName} is still ${row.status} (call ${row.id}); ` +
        `its result will be at GET /v1/calls/${row.id}.`,
      { [MCP_META.callId]: row.id },
    );
  }

  /** A call refused before it ran: an unknown tool is a protocol error (MCP spec), the rest results. */
  private refusal(error: unknown): CallToolResult {
    if (!(error instanceof ToolException)) throw error;
    // Issue paths point into the REST request this path was built for; their messages stand alone.
    const issues = error.issues.map((issue) => `- ${issue.message}`);
    const text = [error.message, ...issues].join('\n');
    if (error.code === 'unknown_tool') {
      throw new McpError(ErrorCode.InvalidParams, text);
    }
    return textResult(text);
  }
}
