import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { ToolIdParamSchema, VersionParamSchema } from '../tools/tools.dto';
import { UsageQuerySchema, type UsageQueryDto, type VersionUsageDto } from './usage.dto';
import { UsageService } from './usage.service';

@ApiTags('versions')
@Controller('tools/:toolId/versions/:version/usage')
export class UsageController {
  constructor(@Inject(UsageService) private readonly usage: UsageService) {}

  // eslint-disable-next-line max-params -- Nest binds each request part through its own decorated parameter
  @Get()
  @RequireScopes('tools:read')
  @ApiOperation({
    summary: 'Which teams, keys and actors called this version in `?window=` (default 7d).',
  })
  versionUsage(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', new ZodValidationPipe(ToolIdParamSchema, 'params/toolId')) toolId: string,
    @Param('version', new ZodValidationPipe(VersionParamSchema, 'params/version')) version: string,
    @Query(new ZodValidationPipe(UsageQuerySchema, 'query')) query: UsageQueryDto,
  ): Promise<VersionUsageDto> {
    return this.usage.versionUsage(principal, { toolId, version }, query);
  }
}
