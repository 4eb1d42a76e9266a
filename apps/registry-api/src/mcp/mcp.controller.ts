import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CredentialsService } from '../auth/credentials.service';
import { hasScope } from '../auth/principal';
import { PublicRoute } from '../auth/require-scopes.decorator';
import { ToolException, ToolExceptionCode } from '../problem/tool.exception';
import { MCP_CONVERSATION_HEADER, MCP_ROUTE } from './mcp-options';
import { scopesForMessages } from './mcp-scopes';
import { McpServerFactory } from './mcp-server.factory';

const ConversationHeaderSchema = z.string().min(1).max(256).optional();

/**
 * The registry as an MCP server over Streamable HTTP, stateless: each POST gets its own server and
 * transport. Refusals before the transport takes over (401, 403, a bad header) are problem
 * documents like every other route; once it has, answers are JSON-RPC on the raw response.
 */
@ApiExcludeController()
// Authenticated in the handler: the scopes depend on the JSON-RPC methods in the body.
@PublicRoute()
@Controller(MCP_ROUTE)
export class McpController {
  constructor(
    @Inject(CredentialsService) private readonly credentials: CredentialsService,
    @Inject(McpServerFactory) private readonly servers: McpServerFactory,
  ) {}

  @Post()
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const principal = await this.credentials.authenticate(request.headers.authorization);
    const missing = scopesForMessages(request.body).filter((scope) => !hasScope(principal, scope));
    if (missing.length > 0) {
      throw new ToolException(
        ToolExceptionCode.Forbidden,
        `This key lacks the scope ${missing.join(', ')}.`,
        {
          extensions: { required_scopes: missing },
          // RFC 6750 §3.1, as the MCP authorization spec asks for insufficient scopes.
          headers: {
            'www-authenticate': `Bearer realm="toolgate", error="insufficient_scope", scope="${missing.join(' ')}"`,
          },
        },
      );
    }
    const conversation = ConversationHeaderSchema.safeParse(
      request.headers[MCP_CONVERSATION_HEADER],
    );
    if (!conversation.success) {
      throw new ToolException(
        ToolExceptionCode.InvalidRequest,
        `The ${MCP_CONVERSATION_HEADER} header is not valid.`,
        { issues: [{ path: `/headers/${MCP_CONVERSATION_HEADER}`, message: '1-256 characters' }] },
      );
    }
    const server = this.servers.create({ principal, conversationId: conversation.data });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    // From here the transport writes the response (SSE for requests), not Fastify.
    reply.hijack();
    reply.raw.setHeader('x-request-id', request.id);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32603, message: 'Internal error' },
            id: null,
          }),
        );
      }
    }
  }

  // Stateless: no standalone SSE stream to open (GET) and no session to end (DELETE).
  @Get()
  streamRefused(): never {
    throw methodNotAllowed();
  }

  @Delete()
  sessionEndRefused(): never {
    throw methodNotAllowed();
  }
}

function methodNotAllowed(): ToolException {
  return new ToolException(
    ToolExceptionCode.MethodNotAllowed,
    'This MCP endpoint is stateless: send JSON-RPC messages with POST.',
    { headers: { allow: 'POST' } },
  );
}
