import { randomUUID } from 'node:crypto';
import { Controller, Inject, Req, Res, UseGuards } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { McpPostQuerySchema, routes } from '@toolgate/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hasScope, type Principal } from '../auth/principal';
import { PublicRoute } from '../auth/require-scopes.decorator';
import { CatalogEventsService, concernsTeam } from '../catalog-events/catalog-events.service';
import { Endpoint } from '../contract/endpoint.decorator';
import { runInRequestScope } from '../logging/request-log';
import { ToolException } from '../problem/tool.exception';
import { sanitizeTransport, toMcpWireError } from './mcp-errors';
import { McpCredentialsService } from './mcp-credentials.service';
import { MCP_CONVERSATION_HEADER } from './mcp-options';
import { McpOriginGuard } from './mcp-origin.guard';
import { scopesForMessages } from './mcp-scopes';
import { McpServerFactory, type McpCaller } from './mcp-server.factory';
import { McpSessionRegistry } from './mcp-session.registry';

const ConversationHeaderSchema = z.string().min(1).max(256).optional();
// The session ids this server hands out (randomUUID); anything else cannot name a session.
const SessionIdSchema = z.uuid();
const SESSION_HEADER = 'mcp-session-id';

/** A live session: the transport answers its requests, the server its JSON-RPC methods. */
interface LiveSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
}

/**
 * The registry as an MCP server over Streamable HTTP. An `initialize` opens a session
 * (`Mcp-Session-Id`, a GET stream for `notifications/tools/list_changed`, DELETE to end it); any
 * other POST without a session id is answered statelessly by a server built for that request, so
 * simple clients need no handshake. Refusals before the transport takes over (401, 403, 404 for an
 * unknown session, a bad header) are problem documents like every other route; once it has,
 * answers are JSON-RPC on the raw response.
 */
// Authenticated in the handler: the scopes depend on the JSON-RPC methods in the body. Public for
// the guard, which would otherwise demand every scope the routes list; no @Input() either, so
// nothing is refused before the credentials are, and the transport alone reads the messages.
// The origin guard comes first of all: a rebinding page gets a 403 whatever it sends.
@PublicRoute()
@UseGuards(McpOriginGuard)
@Controller()
export class McpController {
  private readonly live = new Map<string, LiveSession>();

  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(McpCredentialsService) private readonly credentials: McpCredentialsService,
    @Inject(McpServerFactory) private readonly servers: McpServerFactory,
    @Inject(McpSessionRegistry) private readonly sessions: McpSessionRegistry,
    @Inject(CatalogEventsService) private readonly catalogEvents: CatalogEventsService,
  ) {}

  @Endpoint(routes.postMcpMessage)
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const principal = await this.credentials.authenticate(request);
    const missing = scopesForMessages(request.body).filter((scope) => !hasScope(principal, scope));
    if (missing.length > 0) throw this.credentials.insufficientScope(request, principal, missing);
    const conversationId = conversationOf(request);
    const sessionId = sessionIdOf(request);
    const toolMode = toolModeOf(request);
    if (sessionId !== undefined) {
      const session = this.requireSession(sessionId, principal);
      await this.handOver(request, reply, session.transport);
      return;
    }
    if (isInitializeRequest(request.body)) {
      await this.openSession(request, reply, { principal, conversationId, toolMode });
      return;
    }
    const server = this.servers.create({ principal, conversationId, stateful: false, toolMode });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    sanitizeTransport(transport);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await this.handOver(request, reply, transport);
  }

  /** The session's stream of server-initiated messages (`notifications/tools/list_changed`). */
  @Endpoint(routes.openMcpStream)
  async stream(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const principal = await this.credentials.authenticate(request);
    const sessionId = sessionIdOf(request);
    if (sessionId === undefined) throw methodNotAllowed();
    const session = this.requireSession(sessionId, principal);
    const release = this.sessions.holdStream(sessionId);
    reply.raw.on('close', release);
    await this.handOver(request, reply, session.transport);
  }

  @Endpoint(routes.endMcpSession)
  async end(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const principal = await this.credentials.authenticate(request);
    const sessionId = sessionIdOf(request);
    if (sessionId === undefined) throw methodNotAllowed();
    const session = this.requireSession(sessionId, principal);
    await this.handOver(request, reply, session.transport);
  }

  private async openSession(
    request: FastifyRequest,
    reply: FastifyReply,
    caller: Omit<McpCaller, 'stateful'>,
  ): Promise<void> {
    if (this.sessions.full) {
      throw new ToolException(
        'unavailable',
        'This server holds as many MCP sessions as it may; retry later or call without a session.',
      );
    }
    const server = this.servers.create({ ...caller, stateful: true });
    let unsubscribe: () => void = () => undefined;
    let opened: string | undefined;
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      if (opened !== undefined) {
        this.live.delete(opened);
        this.sessions.remove(opened);
      }
      await server.close();
    };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        opened = id;
        this.live.set(id, { transport, server });
        this.sessions.add(id, { actor: caller.principal.actor, close });
      },
    });
    // Every message it sends, errors the SDK raises itself included, passes the sanitizer.
    sanitizeTransport(transport);
    // DELETE, idle expiry and shutdown all end in the transport closing, which closes the server.
    server.onclose = () => void close();
    const { teamId } = caller.principal;
    unsubscribe = await this.catalogEvents.subscribe((change) => {
      if (!concernsTeam(change, teamId)) return;
      // Only delivered while the client holds its GET stream open; a client without one re-lists.
      server.sendToolListChanged().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      await this.handOver(request, reply, transport);
    } finally {
      // A refused initialize (bad protocol version, malformed) leaves no session behind.
      if (opened === undefined) await close();
    }
  }

  private requireSession(sessionId: string, principal: Principal): LiveSession {
    const handle = this.sessions.use(sessionId, principal.actor);
    const session = handle === undefined ? undefined : this.live.get(sessionId);
    if (session === undefined) {
      // Streamable HTTP: a 404 tells the client to start a new session with a fresh initialize.
      throw new ToolException(
        'not_found',
        `MCP session ${sessionId} was not found; it ended or expired. Initialize a new one.`,
      );
    }
    return session;
  }

  /**
   * From here the transport writes the response (SSE or JSON), not Fastify. It runs in the request's
   * scope, so a failure deep in the SDK is logged on this request's line under its id.
   */
  private async handOver(
    request: FastifyRequest,
    reply: FastifyReply,
    transport: StreamableHTTPServerTransport,
  ): Promise<void> {
    reply.hijack();
    reply.raw.setHeader('x-request-id', request.id);
    await runInRequestScope(request, async () => {
      try {
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        const { code, message, data } = toMcpWireError(error);
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({ jsonrpc: '2.0', error: { code, message, data }, id: null }),
          );
        }
      }
    });
  }
}

function conversationOf(request: FastifyRequest): string | undefined {
  const conversation = ConversationHeaderSchema.safeParse(request.headers[MCP_CONVERSATION_HEADER]);
  if (!conversation.success) {
    throw new ToolException(
      'invalid_request',
      `The ${MCP_CONVERSATION_HEADER} header is not valid.`,
      { issues: [{ path: `/headers/${MCP_CONVERSATION_HEADER}`, message: '1-256 characters' }] },
    );
  }
  return conversation.data;
}

/** `?tools=`: how much of the catalog tools/list shows; a session keeps what its initialize chose. */
function toolModeOf(request: FastifyRequest): McpCaller['toolMode'] {
  const query = McpPostQuerySchema.safeParse(request.query ?? {});
  if (!query.success) {
    throw new ToolException('invalid_request', 'The tools query parameter is not valid.', {
      issues: [{ path: '/query/tools', message: 'must be all or search' }],
    });
  }
  return query.data.tools;
}

function sessionIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers[SESSION_HEADER];
  if (header === undefined) return undefined;
  const parsed = SessionIdSchema.safeParse(header);
  if (!parsed.success) {
    throw new ToolException(
      'invalid_request',
      'The Mcp-Session-Id header is not one this server issued.',
      { issues: [{ path: `/headers/${SESSION_HEADER}`, message: 'a session id from initialize' }] },
    );
  }
  return parsed.data;
}

function methodNotAllowed(): ToolException {
  return new ToolException(
    'method_not_allowed',
    'Without an Mcp-Session-Id there is no stream to open (GET) or session to end (DELETE): ' +
      'initialize a session, or send JSON-RPC messages with POST.',
    { headers: { allow: 'POST' } },
  );
}
