import { Body, Controller, Get, HttpCode, Param, Post, Put, Inject } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { ToolIdParamSchema } from '../tools/tools.dto';
import {
  EmptyBodySchema,
  SetCanarySchema,
  SetStableSchema,
  type SetCanaryDto,
  type SetStableDto,
} from './releases.dto';
import { ReleasesService } from './releases.service';

const toolIdPipe = new ZodValidationPipe(ToolIdParamSchema, 'params/toolId');

@ApiTags('releases')
@Controller('tools/:toolId/release')
export class ReleasesController {
  constructor(@Inject(ReleasesService) private readonly releases: ReleasesService) {}

  @Get()
  @RequireScopes('tools:read')
  @ApiOperation({ summary: "A tool's release state: stable, canary and canary percent." })
  get(@CurrentPrincipal() principal: Principal, @Param('toolId', toolIdPipe) toolId: string) {
    return this.releases.get(principal, toolId);
  }

  @Put('stable')
  @RequireScopes('tools:write')
  @ApiOperation({ summary: 'Set the stable version.' })
  @ApiBody({ schema: z.toJSONSchema(SetStableSchema) as object })
  setStable(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Body(new ZodValidationPipe(SetStableSchema)) body: SetStableDto,
  ) {
    return this.releases.setStable(principal, toolId, body);
  }

  @Put('canary')
  @RequireScopes('tools:write')
  @ApiOperation({ summary: 'Set the canary version and the percentage of subjects that get it.' })
  @ApiBody({ schema: z.toJSONSchema(SetCanarySchema) as object })
  setCanary(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Body(new ZodValidationPipe(SetCanarySchema)) body: SetCanaryDto,
  ) {
    return this.releases.setCanary(principal, toolId, body);
  }

  @Post('promote')
  @HttpCode(200)
  @RequireScopes('tools:write')
  @ApiOperation({ summary: 'Make the canary the stable version.' })
  promote(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Body(new ZodValidationPipe(EmptyBodySchema)) _body: unknown,
  ) {
    return this.releases.promote(principal, toolId);
  }

  @Post('rollback')
  @HttpCode(200)
  @RequireScopes('tools:write')
  @ApiOperation({ summary: 'Stop the canary, or return stable to the previous version.' })
  rollback(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Body(new ZodValidationPipe(EmptyBodySchema)) _body: unknown,
  ) {
    return this.releases.rollback(principal, toolId);
  }
}
