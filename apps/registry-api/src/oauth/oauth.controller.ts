import { Controller, Inject, Req, UseGuards } from '@nestjs/common';
import { routes, type ProtectedResourceMetadata } from '@toolgate/contract';
import type { FastifyRequest } from 'fastify';
import { Endpoint } from '../contract/endpoint.decorator';
import { McpOriginGuard } from '../mcp/mcp-origin.guard';
import { ToolException } from '../problem/tool.exception';
import { OAuthResourceService, requestTargetOf } from './oauth-resource.service';

/**
 * RFC 9728 metadata of /mcp, at the root well-known URL and at the path-suffixed one (§3.1) that
 * the 401 challenge names. Its `resource` is built from the Host, so Host passes the same guard.
 */
@UseGuards(McpOriginGuard)
@Controller()
export class OAuthController {
  constructor(@Inject(OAuthResourceService) private readonly resource: OAuthResourceService) {}

  @Endpoint(routes.getProtectedResourceMetadata)
  root(@Req() request: FastifyRequest): ProtectedResourceMetadata {
    return this.metadata(request);
  }

  @Endpoint(routes.getMcpProtectedResourceMetadata)
  mcp(@Req() request: FastifyRequest): ProtectedResourceMetadata {
    return this.metadata(request);
  }

  private metadata(request: FastifyRequest): ProtectedResourceMetadata {
    const { settings } = this.resource;
    if (settings === undefined) {
      throw new ToolException(
        'not_found',
        'This server takes no OAuth access tokens: /mcp accepts Toolgate API keys only.',
      );
    }
    return this.resource.metadataOf(settings, requestTargetOf(request));
  }
}
