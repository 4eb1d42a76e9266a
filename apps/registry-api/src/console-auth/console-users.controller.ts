import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { ConsoleUsersService } from './console-users.service';

@Controller()
export class ConsoleUsersController {
  constructor(@Inject(ConsoleUsersService) private readonly users: ConsoleUsersService) {}

  @Endpoint(routes.listConsoleUsers)
  list() {
    return this.users.list();
  }

  @Endpoint(routes.createConsoleUser)
  create(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createConsoleUser>,
  ) {
    return this.users.create(principal, input.body);
  }

  @Endpoint(routes.updateConsoleUser)
  update(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.updateConsoleUser>,
  ) {
    return this.users.update(principal, input.params.userId, input.body);
  }
}
