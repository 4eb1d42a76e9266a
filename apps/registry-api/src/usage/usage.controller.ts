import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { UsageService } from './usage.service';

@Controller()
export class UsageController {
  constructor(@Inject(UsageService) private readonly usage: UsageService) {}

  @Endpoint(routes.getVersionUsage)
  versionUsage(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getVersionUsage>,
  ) {
    return this.usage.versionUsage(principal, input.params, input.query);
  }
}
