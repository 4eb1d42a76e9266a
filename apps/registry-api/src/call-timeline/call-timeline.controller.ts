import { Controller, Inject } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { CallTimelineService } from './call-timeline.service';

@Controller()
export class CallTimelineController {
  constructor(@Inject(CallTimelineService) private readonly timelines: CallTimelineService) {}

  @Endpoint(routes.getCallTimeline)
  timeline(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getCallTimeline>,
  ) {
    return this.timelines.timeline(principal, input.params.callId);
  }
}
