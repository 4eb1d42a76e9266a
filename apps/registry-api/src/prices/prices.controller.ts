import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { PricesService } from './prices.service';

@Controller()
export class PricesController {
  constructor(@Inject(PricesService) private readonly prices: PricesService) {}

  @Endpoint(routes.listPrices)
  list() {
    return this.prices.list();
  }

  @Endpoint(routes.putPrice)
  put(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.putPrice>,
  ) {
    return this.prices.put(principal, input.params, input.body);
  }

  @Endpoint(routes.deletePrice)
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.deletePrice>,
  ): Promise<void> {
    await this.prices.delete(principal, input.params);
  }
}
