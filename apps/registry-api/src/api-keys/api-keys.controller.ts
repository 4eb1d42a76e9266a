import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { ApiKeysService } from './api-keys.service';

@Controller()
export class ApiKeysController {
  constructor(@Inject(ApiKeysService) private readonly keys: ApiKeysService) {}

  @Endpoint(routes.createApiKey)
  create(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createApiKey>,
  ) {
    return this.keys.create(principal, input.body);
  }

  @Endpoint(routes.listApiKeys)
  list(@CurrentPrincipal() principal: Principal) {
    return this.keys.list(principal);
  }

  @Endpoint(routes.revokeApiKey)
  revoke(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.revokeApiKey>,
  ) {
    return this.keys.revoke(principal, input.params.id);
  }
}
