import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { TeamsService } from './teams.service';

@Controller()
export class TeamsController {
  constructor(@Inject(TeamsService) private readonly teams: TeamsService) {}

  @Endpoint(routes.createTeam)
  create(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createTeam>,
  ) {
    return this.teams.create(principal, input.body);
  }

  @Endpoint(routes.listTeams)
  list(@CurrentPrincipal() principal: Principal) {
    return this.teams.list(principal);
  }

  @Endpoint(routes.updateTeam)
  update(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.updateTeam>,
  ) {
    return this.teams.update(principal, input.params.teamId, input.body);
  }
}
