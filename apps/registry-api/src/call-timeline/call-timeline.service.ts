import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import { ToolException, ToolExceptionCode } from '../problem/tool.exception';
import { buildCallTimeline, type TimelineEvent } from './call-timeline';
import { CallTimelineRepository } from './call-timeline.repository';

@Injectable()
export class CallTimelineService {
  constructor(@Inject(CallTimelineRepository) private readonly calls: CallTimelineRepository) {}

  async timeline(
    principal: Principal,
    callId: string,
  ): Promise<{ call_id: string; events: TimelineEvent[] }> {
    const call = await this.calls.findCall(callId, principal.teamId);
    if (call === null) {
      throw new ToolException(ToolExceptionCode.NotFound, `Call ${callId} was not found.`);
    }
    return { call_id: call.id, events: buildCallTimeline(call) };
  }
}
