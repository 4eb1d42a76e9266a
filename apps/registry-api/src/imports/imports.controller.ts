import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import {
  ImportOpenApiSchema,
  McpServerIdParamSchema,
  RegisterMcpServerSchema,
  type ImportOpenApiDto,
  type RegisterMcpServerDto,
} from './imports.dto';
import { McpServersService } from './mcp-servers.service';
import { OpenApiImportService } from './openapi-import.service';

const serverIdPipe = new ZodValidationPipe(McpServerIdParamSchema, 'params/serverId');

@ApiTags('imports')
@Controller('imports')
export class ImportsController {
  constructor(
    @Inject(OpenApiImportService) private readonly openApi: OpenApiImportService,
    @Inject(McpServersService) private readonly servers: McpServersService,
  ) {}

  @Post('openapi')
  @HttpCode(200)
  @RequireScopes('tools:write')
  @ApiOperation({
    summary: 'Import an OpenAPI 3.0/3.1 document: one tool per operation, http executor.',
  })
  @ApiBody({ schema: z.toJSONSchema(ImportOpenApiSchema, { io: 'input' }) as object })
  importOpenApi(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(ImportOpenApiSchema)) body: ImportOpenApiDto,
  ) {
    return this.openApi.import(principal, body);
  }

  @Post('mcp-servers')
  @HttpCode(201)
  @RequireScopes('tools:write')
  @ApiOperation({
    summary: 'Register an upstream MCP server (Streamable HTTP) and import its tools.',
  })
  @ApiBody({ schema: z.toJSONSchema(RegisterMcpServerSchema, { io: 'input' }) as object })
  registerMcpServer(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(RegisterMcpServerSchema)) body: RegisterMcpServerDto,
  ) {
    return this.servers.register(principal, body);
  }

  @Get('mcp-servers')
  @RequireScopes('tools:read')
  @ApiOperation({ summary: 'The registered upstream MCP servers.' })
  listMcpServers(@CurrentPrincipal() principal: Principal) {
    return this.servers.list(principal);
  }

  @Get('mcp-servers/:serverId')
  @RequireScopes('tools:read')
  @ApiOperation({ summary: 'One upstream MCP server and the tools mirrored from it.' })
  getMcpServer(
    @CurrentPrincipal() principal: Principal,
    @Param('serverId', serverIdPipe) serverId: string,
  ) {
    return this.servers.get(principal, serverId);
  }

  @Post('mcp-servers/:serverId/sync')
  @HttpCode(200)
  @RequireScopes('tools:write')
  @ApiOperation({
    summary:
      'Re-list the upstream tools: import new ones, version changed ones, deprecate removed ones.',
  })
  syncMcpServer(
    @CurrentPrincipal() principal: Principal,
    @Param('serverId', serverIdPipe) serverId: string,
  ) {
    return this.servers.resync(principal, serverId);
  }
}
