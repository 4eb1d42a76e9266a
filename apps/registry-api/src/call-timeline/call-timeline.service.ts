import { Inject, Injectable } from '@nestjs/common';
import type { CallTimeline } from '@toolgate/contract';
import { ActorsService } from '../actors/actors.service';
import type { Principal } from '../auth/principal';
import { ToolException } from '../problem/tool.exception';
import { buildCallTimeline } from './call-timeline';
import { CallTimelineRepository } from './call-timeline.repository';

@Injectable()
export class CallTimelineService {
  constructor(
    @Inject(CallTimelineRepository) private readonly calls: CallTimelineRepository,
    @Inject(ActorsService) private readonly actors: ActorsService,
  ) {}

  async timeline(principal: Principal, callId: string): Promise<CallTimeline> {
    const call = await this.calls.findCall(callId, principal.teamId);
    if (call === null) {
      throw new ToolException('not_found', `Call ${callId} was not found.`);
    }
    const events = buildCallTimeline(call);
    const actors = await this.actors.describe(
      events.map((event) =>
        event.type === 'received'
          ? event.detail.actor
          : event.type === 'approval_decided'
            ? event.detail.decided_by
            : null,
      ),
    );
    return { call_id: call.id, events, actors };
  }
}
