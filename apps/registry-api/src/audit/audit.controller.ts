import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { AuditService } from './audit.service';

@Controller()
export class AuditController {
  constructor(@Inject(AuditService) private readonly audit: AuditService) {}

  @Endpoint(routes.listAuditEvents)
  list(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.listAuditEvents>,
  ) {
    return this.audit.list(principal, input.query);
  }

  @Endpoint(routes.verifyAuditChain)
  verify(@Input() input: RouteInput<typeof routes.verifyAuditChain>) {
    return this.audit.verify(input.query);
  }
}
