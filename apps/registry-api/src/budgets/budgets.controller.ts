import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { BudgetsService } from './budgets.service';

@Controller()
export class BudgetsController {
  constructor(@Inject(BudgetsService) private readonly budgets: BudgetsService) {}

  @Endpoint(routes.listBudgets)
  list(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.listBudgets>,
  ) {
    return this.budgets.list(principal, input.query);
  }

  @Endpoint(routes.getBudget)
  get(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getBudget>,
  ) {
    return this.budgets.get(principal, input.params);
  }

  @Endpoint(routes.putBudget)
  put(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.putBudget>,
  ) {
    return this.budgets.put(principal, input.params, input.body);
  }

  @Endpoint(routes.deleteBudget)
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.deleteBudget>,
  ): Promise<void> {
    await this.budgets.delete(principal, input.params);
  }
}
