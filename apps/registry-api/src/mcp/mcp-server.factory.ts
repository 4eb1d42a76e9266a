import { Inject, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { IdempotencyKeySchema, MAX_WAIT_MS } from '../calls/calls.dto';
import type { Principal } from '../auth/principal';
import { McpCallsService, type McpCallContext } from './mcp-calls.service';
import { McpCatalogService } from './mcp-catalog.service';
import { guardHandlers } from './mcp-errors';
import { inFlightKey, McpInFlightRegistry } from './mcp-in-flight.registry';
import { MCP_APPROVAL_WAIT_META, MCP_META, MCP_OPTIONS, type McpOptions } from './mcp-options';

const SERVER_INFO = { name: 'toolgate', title: 'Toolgate registry', version: '0.1.0' };
const INSTRUCTIONS =
  "Tools of this team's Toolgate catalog. Calls run through the gateway's policies, approvals " +
  'and audit. A call that needs approval waits for the decision as long as the server is ' +
  `configured to, or as _meta["${MCP_APPROVAL_WAIT_META}"] asks, and otherwise returns an ` +
  'error result naming the approval a person must decide.';
const ApprovalWaitSchema = z.number().int().min(0).max(MAX_WAIT_MS).optional();

/** Who one MCP request runs for, worked out from its HTTP request before the server is built. */
export interface McpCaller {
  principal: Principal;
  conversationId: string | undefined;
  /** True for a session's server, which can reach the client later (`list_changed`). */
  stateful: boolean;
}

/**
 * Builds an MCP server for one stateless HTTP request (any replica can answer it) or for one
 * session (it lives on the replica that initialized it). The low-level `Server` is used rather than `McpServer`
 * because the tool list is the registry's, not a fixed set of registered handlers.
 */
@Injectable()
export class McpServerFactory {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(McpCatalogService) private readonly catalog: McpCatalogService,
    @Inject(McpCallsService) private readonly calls: McpCallsService,
    @Inject(McpInFlightRegistry) private readonly inFlight: McpInFlightRegistry,
    @Inject(MCP_OPTIONS) private readonly options: McpOptions,
  ) {}

  create(caller: McpCaller): Server {
    // Every handler's failure reaches the client sanitized and its detail the request's log line.
    const server = guardHandlers(
      new Server(SERVER_INFO, {
        capabilities: { tools: { listChanged: caller.stateful } },
        instructions: INSTRUCTIONS,
      }),
    );
    server.setRequestHandler(ListToolsRequestSchema, (request) =>
      this.catalog.listTools(caller.principal, request.params?.cursor),
    );
    const { conversationId } = caller;
    if (conversationId !== undefined) {
      // Replaces the SDK's own handler, which only knows requests of this (fresh) server instance.
      server.setNotificationHandler(CancelledNotificationSchema, (notification) => {
        const { requestId, reason } = notification.params;
        if (requestId === undefined) return;
        this.inFlight.cancel(
          inFlightKey({ actor: caller.principal.actor, conversationId, requestId }),
          reason,
        );
      });
    }
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const meta = request.params._meta;
      const key = IdempotencyKeySchema.safeParse(meta?.[MCP_META.idempotencyKey]);
      if (!key.success) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `_meta["${MCP_META.idempotencyKey}"] must be 1-255 visible ASCII characters.`,
        );
      }
      const approvalWait = ApprovalWaitSchema.safeParse(meta?.[MCP_APPROVAL_WAIT_META]);
      if (!approvalWait.success) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `_meta["${MCP_APPROVAL_WAIT_META}"] must be a whole number of ms from 0 to ${MAX_WAIT_MS}.`,
        );
      }
      const progressToken = meta?.progressToken;
      const tracked =
        conversationId === undefined
          ? undefined
          : this.inFlight.track(
              inFlightKey({
                actor: caller.principal.actor,
                conversationId,
                requestId: extra.requestId,
              }),
            );
      const context: McpCallContext = {
        signal:
          tracked === undefined ? extra.signal : AbortSignal.any([extra.signal, tracked.signal]),
        conversationId: caller.conversationId,
        idempotencyKey: key.data,
        approvalWaitMs: approvalWait.data ?? this.options.approvalWaitMs,
        ...(progressToken === undefined
          ? {}
          : {
              onProgress: (progress) =>
                extra.sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken, ...progress },
                }),
            }),
      };
      try {
        return await this.calls.callTool(
          caller.principal,
          { name: request.params.name, arguments: request.params.arguments ?? {} },
          context,
        );
      } finally {
        tracked?.release();
      }
    });
    return server;
  }
}
