import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, Inject } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { ToolVersionsService } from './tool-versions.service';
import {
  DeprecateVersionSchema,
  DiffQuerySchema,
  PublishVersionSchema,
  ToolIdParamSchema,
  VersionParamSchema,
  type DeprecateVersionDto,
  type DiffQueryDto,
  type PublishVersionDto,
} from './tools.dto';

const toolIdPipe = new ZodValidationPipe(ToolIdParamSchema, 'params/toolId');
const versionPipe = new ZodValidationPipe(VersionParamSchema, 'params/version');

@ApiTags('versions')
@Controller('tools/:toolId')
export class ToolVersionsController {
  constructor(@Inject(ToolVersionsService) private readonly versions: ToolVersionsService) {}

  @Post('versions')
  @HttpCode(201)
  @RequireScopes('tools:write')
  @ApiOperation({
    summary:
      'Publish a version: a ToolIR, or a provider definition with `format`. Breaking changes need a major bump.',
  })
  @ApiBody({ schema: z.toJSONSchema(PublishVersionSchema, { io: 'input' }) as object })
  publish(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Body(new ZodValidationPipe(PublishVersionSchema)) body: PublishVersionDto,
  ) {
    return this.versions.publish(principal, toolId, body);
  }

  @Get('versions')
  @RequireScopes('tools:read')
  @ApiOperation({ summary: 'Every version of a tool, newest first.' })
  list(@CurrentPrincipal() principal: Principal, @Param('toolId', toolIdPipe) toolId: string) {
    return this.versions.list(principal, toolId);
  }

  // eslint-disable-next-line max-params -- Nest binds each request part through its own decorated parameter
  @Get('versions/:version')
  @RequireScopes('tools:read')
  @ApiOperation({
    summary:
      'One version with its ToolIR; deprecated versions carry Deprecation, Sunset and Link headers.',
  })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Param('version', versionPipe) version: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const served = await this.versions.get(principal, toolId, version);
    void reply.headers(served.headers);
    return served.version;
  }

  @Post('versions/:version/publish')
  @HttpCode(200)
  @RequireScopes('tools:write')
  @ApiOperation({ summary: 'Publish a draft version (breaking changes still need a major bump).' })
  publishDraft(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Param('version', versionPipe) version: string,
  ) {
    return this.versions.publishDraft(principal, { toolId, version });
  }

  // eslint-disable-next-line max-params -- Nest binds each request part through its own decorated parameter
  @Post('versions/:version/deprecate')
  @HttpCode(200)
  @RequireScopes('tools:write')
  @ApiOperation({
    summary: 'Deprecate a version with a future sunset, a successor and optional brownouts.',
  })
  @ApiBody({ schema: z.toJSONSchema(DeprecateVersionSchema, { io: 'input' }) as object })
  deprecate(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Param('version', versionPipe) version: string,
    @Body(new ZodValidationPipe(DeprecateVersionSchema)) body: DeprecateVersionDto,
  ) {
    return this.versions.deprecate(principal, { toolId, version }, body);
  }

  @Get('diff')
  @RequireScopes('tools:read')
  @ApiOperation({
    summary: 'JSON Schema diff of two versions, each change classified breaking or not.',
  })
  diff(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Query(new ZodValidationPipe(DiffQuerySchema, 'query')) query: DiffQueryDto,
  ) {
    return this.versions.diff(principal, toolId, query);
  }
}
