import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { SloQuerySchema, type SloQueryDto, type SloReportDto } from './metrics.dto';
import { MetricsService } from './metrics.service';

@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(MetricsService) private readonly metrics: MetricsService) {}

  @Get('slo')
  @RequireScopes('tools:read')
  @ApiOperation({
    summary:
      'Success rate, p50/p95 latency, error codes and approvals per tool over `?window=1h|24h|7d|30d`, with the SLOs met or breached.',
  })
  slo(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(SloQuerySchema, 'query')) query: SloQueryDto,
  ): Promise<SloReportDto> {
    return this.metrics.slo(principal, query);
  }
}
