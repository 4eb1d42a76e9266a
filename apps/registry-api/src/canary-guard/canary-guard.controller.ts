import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { ReleaseHealthService } from './release-health.service';

@Controller()
export class CanaryGuardController {
  constructor(@Inject(ReleaseHealthService) private readonly guard: ReleaseHealthService) {}

  @Endpoint(routes.getReleaseHealth)
  health(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getReleaseHealth>,
  ) {
    return this.guard.health(principal, input.params.toolId);
  }

  @Endpoint(routes.getReleaseHistory)
  history(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getReleaseHistory>,
  ) {
    return this.guard.history(principal, input.params.toolId, input.query);
  }

  @Endpoint(routes.evaluateCanaryGuard)
  evaluate(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.evaluateCanaryGuard>,
  ) {
    return this.guard.evaluate(principal, input.params.toolId);
  }
}
