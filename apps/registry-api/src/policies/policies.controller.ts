import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { PoliciesService } from './policies.service';

@Controller()
export class PoliciesController {
  constructor(@Inject(PoliciesService) private readonly policies: PoliciesService) {}

  @Endpoint(routes.createPolicy)
  create(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createPolicy>,
  ) {
    return this.policies.create(principal, input.body);
  }

  @Endpoint(routes.listPolicies)
  list(@CurrentPrincipal() principal: Principal) {
    return this.policies.list(principal);
  }

  @Endpoint(routes.testPolicy)
  test(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.testPolicy>,
  ) {
    return this.policies.test(principal, input.body);
  }

  @Endpoint(routes.activatePolicy)
  activate(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.activatePolicy>,
  ) {
    return this.policies.activate(principal, input.params.revision);
  }
}
