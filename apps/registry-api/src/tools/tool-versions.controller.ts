import { Controller, Inject, Res } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { ToolVersionsService } from './tool-versions.service';

@Controller()
export class ToolVersionsController {
  constructor(@Inject(ToolVersionsService) private readonly versions: ToolVersionsService) {}

  @Endpoint(routes.publishToolVersion)
  publish(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.publishToolVersion>,
  ) {
    return this.versions.publish(principal, input.params.toolId, input.body);
  }

  @Endpoint(routes.listToolVersions)
  list(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.listToolVersions>,
  ) {
    return this.versions.list(principal, input.params.toolId);
  }

  @Endpoint(routes.getToolVersion)
  async get(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getToolVersion>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const served = await this.versions.get(principal, input.params.toolId, input.params.version);
    void reply.headers(served.headers);
    return served.version;
  }

  @Endpoint(routes.publishDraftToolVersion)
  publishDraft(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.publishDraftToolVersion>,
  ) {
    return this.versions.publishDraft(principal, input.params);
  }

  @Endpoint(routes.deprecateToolVersion)
  deprecate(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.deprecateToolVersion>,
  ) {
    return this.versions.deprecate(principal, input.params, input.body);
  }

  @Endpoint(routes.diffToolVersions)
  diff(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.diffToolVersions>,
  ) {
    return this.versions.diff(principal, input.params.toolId, input.query);
  }
}
