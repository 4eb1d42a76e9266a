import { Inject, Injectable } from '@nestjs/common';
import type { CallTimeline } from '@toolgate/contract';
import type { Principal } from '../auth/principal';
import { ToolException } from '../problem/tool.exception';
import { buildCallTimeline } from './call-timeline';
import { CallTimelineRepository } from './call-timeline.repository';

@Injectable()
export class CallTimelineService {
  constructor(@Inject(CallTimelineRepository) private readonly calls: CallTimelineRepository) {}

  async timeline(principal: Principal, callId: string): Promise<CallTimeline> {
    const call = await this.calls.findCall(callId, principal.teamId);
    if (call === null) {
      throw new ToolException('not_found', `Call ${callId} was not found.`);
    }
    return { call_id: call.id, events: buildCallTimeline(call) };
  }
}
