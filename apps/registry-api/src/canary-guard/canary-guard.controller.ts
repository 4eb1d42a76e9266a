import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { EmptyBodySchema } from '../releases/releases.dto';
import { ToolIdParamSchema } from '../tools/tools.dto';
import type { GuardEvaluationDto, ReleaseHealthDto } from './canary-guard.dto';
import { ReleaseHealthService } from './release-health.service';

const toolIdPipe = new ZodValidationPipe(ToolIdParamSchema, 'params/toolId');

@ApiTags('releases')
@Controller('tools/:toolId/release')
export class CanaryGuardController {
  constructor(@Inject(ReleaseHealthService) private readonly guard: ReleaseHealthService) {}

  @Get('health')
  @RequireScopes('tools:read')
  @ApiOperation({
    summary: "Stable and canary figures over the guard's window, and the guard's verdict.",
  })
  health(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
  ): Promise<ReleaseHealthDto> {
    return this.guard.health(principal, toolId);
  }

  @Post('guard/evaluate')
  @HttpCode(200)
  @RequireScopes('tools:write')
  @ApiOperation({
    summary: 'Evaluate the canary now; a canary doing clearly worse than stable is rolled back.',
  })
  evaluate(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', toolIdPipe) toolId: string,
    @Body(new ZodValidationPipe(EmptyBodySchema)) _body: unknown,
  ): Promise<GuardEvaluationDto> {
    return this.guard.evaluate(principal, toolId);
  }
}
