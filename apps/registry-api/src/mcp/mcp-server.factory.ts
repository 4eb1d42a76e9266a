import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SetLevelRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import {
  requestsFreshResult,
  DEFAULT_SEARCH_TOOL_RESULTS,
  SEARCH_TOOL_NAME,
  type McpPostQuery,
} from '@toolgate/contract';
import { z } from 'zod';
import { IdempotencyKeySchema, MAX_WAIT_MS } from '../calls/calls.dto';
import type { Principal } from '../auth/principal';
import { McpCallsService, type McpCallContext } from './mcp-calls.service';
import { McpCatalogService } from './mcp-catalog.service';
import { relayedCapabilitiesOf, relayedClientOf, SessionLogLevel } from './mcp-client-relay';
import { guardHandlers } from './mcp-errors';
import { inFlightKey, McpInFlightRegistry } from './mcp-in-flight.registry';
import { FoundTools, parseSearchArguments, SEARCH_TOOL, searchResult } from './mcp-tool-search';
import { MCP_APPROVAL_WAIT_META, MCP_META, MCP_OPTIONS, type McpOptions } from './mcp-options';

const SERVER_INFO = { name: 'toolgate', title: 'Toolgate registry', version: '0.1.0' };
const INSTRUCTIONS =
  "Tools of this team's Toolgate catalog. Calls run through the gateway's policies, approvals " +
  'and audit. A call that needs approval waits for the decision as long as the server is ' +
  `configured to, or as _meta["${MCP_APPROVAL_WAIT_META}"] asks, and otherwise returns an ` +
  'error result naming the approval a person must decide.';
const ApprovalWaitSchema = z.number().int().min(0).max(MAX_WAIT_MS).optional();
const CacheControlMetaSchema = z.string().max(1024).optional();

/** Who one MCP request runs for, worked out from its HTTP request before the server is built. */
export interface McpCaller {
  principal: Principal;
  conversationId: string | undefined;
  /** True for a session's server, which can reach the client later (`list_changed`). */
  stateful: boolean;
  /** `all`: tools/list pages through the catalog; `search`: the search tool and what it found. */
  toolMode: McpPostQuery['tools'];
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
        // logging: upstream servers' log messages during a call are relayed to its client.
        capabilities: { tools: { listChanged: caller.stateful }, logging: {} },
        instructions: INSTRUCTIONS,
      }),
    );
    const logLevel = new SessionLogLevel();
    // Replaces the SDK's own handler, whose level only its own sendLoggingMessage reads.
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      logLevel.set(request.params.level);
      return {};
    });
    // In search mode a session lists what its searches found; a stateless server forgets it.
    const found = caller.toolMode === 'search' ? new FoundTools() : undefined;
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      if (found === undefined)
        return this.catalog.listTools(caller.principal, request.params?.cursor);
      // One page: the search tool and at most MAX_LOADED_TOOLS found ones.
      return {
        tools: [SEARCH_TOOL, ...(await this.catalog.listNamed(caller.principal, found.names))],
      };
    });
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
      if (found !== undefined && request.params.name === SEARCH_TOOL_NAME) {
        return this.searchTools(caller, found, { server, args: request.params.arguments ?? {} });
      }
      const meta = request.params._meta;
      const key = IdempotencyKeySchema.safeParse(meta?.[MCP_META.idempotencyKey]);
      if (!key.success) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `_meta["${MCP_META.idempotencyKey}"] must be 1-255 visible ASCII characters.`,
        );
      }
      const cacheControl = CacheControlMetaSchema.safeParse(meta?.[MCP_META.cacheControl]);
      if (!cacheControl.success) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `_meta["${MCP_META.cacheControl}"] must be a Cache-Control value such as "no-cache".`,
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
      // Only a session can take the client's answer to a relayed request back to this server.
      const sessionId = caller.stateful ? extra.sessionId : undefined;
      const context: McpCallContext = {
        signal:
          tracked === undefined ? extra.signal : AbortSignal.any([extra.signal, tracked.signal]),
        conversationId: caller.conversationId,
        idempotencyKey: key.data,
        ...(requestsFreshResult(cacheControl.data) ? { cache: 'refresh' as const } : {}),
        approvalWaitMs: approvalWait.data ?? this.options.approvalWaitMs,
        ...(sessionId === undefined
          ? {}
          : {
              relay: {
                target: {
                  session_id: sessionId,
                  relay_id: randomUUID(),
                  capabilities: relayedCapabilitiesOf(server.getClientCapabilities()),
                },
                client: relayedClientOf(extra, logLevel),
              },
            }),
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

  /** The search tool's call: the matches' definitions, listed from now on in a session. */
  private async searchTools(
    caller: McpCaller,
    found: FoundTools,
    call: { server: Server; args: Record<string, unknown> },
  ): Promise<CallToolResult> {
    const args = parseSearchArguments(call.args);
    if (!args.ok) return args.result;
    const matches = await this.catalog.search(caller.principal, {
      q: args.value.query,
      limit: args.value.limit ?? DEFAULT_SEARCH_TOOL_RESULTS,
    });
    if (caller.stateful && found.add(matches.tools.map((tool) => tool.name))) {
      // Sent after the result, so a client re-lists once it has the answer.
      setImmediate(() => void call.server.sendToolListChanged().catch(() => undefined));
    }
    return searchResult(matches, args.value.query);
  }
}
