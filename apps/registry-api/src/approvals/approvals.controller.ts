import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { ApprovalsService } from './approvals.service';

@Controller()
export class ApprovalsController {
  constructor(@Inject(ApprovalsService) private readonly approvals: ApprovalsService) {}

  @Endpoint(routes.listApprovals)
  list(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.listApprovals>,
  ) {
    return this.approvals.list(principal, input.query);
  }

  @Endpoint(routes.decideApproval)
  decide(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.decideApproval>,
  ) {
    return this.approvals.decide(principal, input.params.approvalId, input.body);
  }
}
