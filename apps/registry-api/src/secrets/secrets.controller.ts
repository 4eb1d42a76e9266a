import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { SecretsService } from './secrets.service';

@Controller()
export class SecretsController {
  constructor(@Inject(SecretsService) private readonly secrets: SecretsService) {}

  @Endpoint(routes.createSecret)
  create(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createSecret>,
  ) {
    return this.secrets.create(principal, input.body);
  }

  @Endpoint(routes.listSecrets)
  list(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.listSecrets>,
  ) {
    return this.secrets.list(principal, input.query);
  }

  @Endpoint(routes.rotateSecret)
  rotate(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.rotateSecret>,
  ) {
    return this.secrets.rotate(
      principal,
      { name: input.params.name, query: input.query },
      input.body,
    );
  }

  @Endpoint(routes.deleteSecret)
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.deleteSecret>,
  ): Promise<void> {
    await this.secrets.delete(principal, input.params.name, input.query);
  }
}
