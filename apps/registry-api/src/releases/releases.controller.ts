import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { ReleasesService } from './releases.service';

@Controller()
export class ReleasesController {
  constructor(@Inject(ReleasesService) private readonly releases: ReleasesService) {}

  @Endpoint(routes.getRelease)
  get(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getRelease>,
  ) {
    return this.releases.get(principal, input.params.toolId);
  }

  @Endpoint(routes.setStableVersion)
  setStable(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.setStableVersion>,
  ) {
    return this.releases.setStable(principal, input.params.toolId, input.body);
  }

  @Endpoint(routes.setCanaryVersion)
  setCanary(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.setCanaryVersion>,
  ) {
    return this.releases.setCanary(principal, input.params.toolId, input.body);
  }

  @Endpoint(routes.promoteCanary)
  promote(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.promoteCanary>,
  ) {
    return this.releases.promote(principal, input.params.toolId);
  }

  @Endpoint(routes.rollbackRelease)
  rollback(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.rollbackRelease>,
  ) {
    return this.releases.rollback(principal, input.params.toolId);
  }
}
