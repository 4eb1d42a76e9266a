import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import { ToolException } from '../problem/tool.exception';
import { mcpOriginPolicyOf, refusedMcpHeader, type McpOriginPolicy } from './mcp-origin-policy';

/**
 * Refuses requests to /mcp (and its OAuth metadata) whose `Host` or `Origin` is not this server's,
 * before credentials are read or any JSON-RPC runs (MCP transports 2025-11-25, "Security Warning":
 * servers MUST validate Origin and answer an invalid one with 403).
 */
@Injectable()
export class McpOriginGuard implements CanActivate {
  private readonly policy: McpOriginPolicy;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.policy = mcpOriginPolicyOf({
      listenHost: config.HOST,
      publicUrl: config.TOOLGATE_PUBLIC_URL,
      allowedHosts: config.TOOLGATE_MCP_ALLOWED_HOSTS,
      allowedOrigins: config.TOOLGATE_MCP_ALLOWED_ORIGINS,
    });
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const refused = refusedMcpHeader(this.policy, {
      host: request.headers.host,
      origin: request.headers.origin,
    });
    if (refused === 'host') {
      throw new ToolException(
        'forbidden',
        'This server does not answer MCP requests for that Host; the operator may add it to TOOLGATE_MCP_ALLOWED_HOSTS.',
      );
    }
    if (refused === 'origin') {
      throw new ToolException(
        'forbidden',
        'MCP requests from that Origin are refused; the operator may add it to TOOLGATE_MCP_ALLOWED_ORIGINS.',
      );
    }
    return true;
  }
}
