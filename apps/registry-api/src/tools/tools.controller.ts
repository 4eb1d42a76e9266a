import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { ToolsService } from './tools.service';

@Controller()
export class ToolsController {
  constructor(@Inject(ToolsService) private readonly tools: ToolsService) {}

  @Endpoint(routes.createTool)
  create(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createTool>,
  ) {
    return this.tools.create(principal, input.body);
  }

  @Endpoint(routes.listTools)
  list(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.listTools>,
  ) {
    return this.tools.list(principal, input.query);
  }

  @Endpoint(routes.searchTools)
  search(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.searchTools>,
  ) {
    return this.tools.search(principal, input.query);
  }

  @Endpoint(routes.getTool)
  get(@CurrentPrincipal() principal: Principal, @Input() input: RouteInput<typeof routes.getTool>) {
    return this.tools.get(principal, input.params.toolId);
  }
}
