import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { McpServersService } from './mcp-servers.service';
import { OpenApiImportService } from './openapi-import.service';

@Controller()
export class ImportsController {
  constructor(
    @Inject(OpenApiImportService) private readonly openApi: OpenApiImportService,
    @Inject(McpServersService) private readonly servers: McpServersService,
  ) {}

  @Endpoint(routes.importOpenApi)
  importOpenApi(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.importOpenApi>,
  ) {
    return this.openApi.import(principal, input.body);
  }

  @Endpoint(routes.registerMcpServer)
  registerMcpServer(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.registerMcpServer>,
  ) {
    return this.servers.register(principal, input.body);
  }

  @Endpoint(routes.listMcpServers)
  listMcpServers(@CurrentPrincipal() principal: Principal) {
    return this.servers.list(principal);
  }

  @Endpoint(routes.getMcpServer)
  getMcpServer(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getMcpServer>,
  ) {
    return this.servers.get(principal, input.params.serverId);
  }

  @Endpoint(routes.syncMcpServer)
  syncMcpServer(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.syncMcpServer>,
  ) {
    return this.servers.resync(principal, input.params.serverId);
  }
}
