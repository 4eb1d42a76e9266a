import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { MetricsService } from './metrics.service';

@Controller()
export class MetricsController {
  constructor(@Inject(MetricsService) private readonly metrics: MetricsService) {}

  @Endpoint(routes.getSloReport)
  slo(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getSloReport>,
  ) {
    return this.metrics.slo(principal, input.query);
  }

  @Endpoint(routes.getCostReport)
  cost(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getCostReport>,
  ) {
    return this.metrics.cost(principal, input.query);
  }

  @Endpoint(routes.getCallsMetrics)
  calls(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getCallsMetrics>,
  ) {
    return this.metrics.calls(principal, input.query);
  }
}
