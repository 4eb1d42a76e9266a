import { Inject, Injectable } from '@nestjs/common';
import { FINAL_CALL_STATUSES } from '@toolgate/persistence';
import type { Principal } from '../auth/principal';
import { CallEventBus, type CallEvent } from './call-event-bus';
import type { CallDto } from './calls.dto';
import { CallsService } from './calls.service';
import { GatewayHost } from './gateway-host';

/** Where a call's event stream goes (an SSE response in the controller). */
export interface CallEventSink {
  send(event: string, data: unknown): void;
  end(): void;
  /** Registers what to do when the client goes away. */
  onClose(listener: () => void): void;
}

const FINAL = new Set<CallDto['status']>(FINAL_CALL_STATUSES);

/** Streams one call: its current state first, then its live events until it is final. */
@Injectable()
export class CallEventsService {
  constructor(
    @Inject(CallsService) private readonly calls: CallsService,
    @Inject(CallEventBus) private readonly bus: CallEventBus,
    @Inject(GatewayHost) private readonly gateway: GatewayHost,
  ) {}

  async stream(principal: Principal, callId: string, sink: CallEventSink): Promise<void> {
    // Subscribe before reading, so no event between the read and the subscription is lost.
    const buffered: CallEvent[] = [];
    let replaying = true;
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      sink.end();
    };
    const deliver = (event: CallEvent) => {
      if (closed) return;
      sink.send(event.type, event);
      if (event.type === 'finished' || event.type === 'cancelled') finish();
    };
    const unsubscribe = this.bus.subscribe(callId, (event) => {
      if (replaying) buffered.push(event);
      else deliver(event);
    });
    // Workers publish a call's progress events only while someone streams it.
    this.gateway.watch(callId);
    sink.onClose(() => {
      closed = true;
      unsubscribe();
    });
    let call: CallDto;
    try {
      call = await this.calls.get(principal, callId);
    } catch (error) {
      unsubscribe();
      throw error;
    }
    sink.send('state', call);
    if (call.status === 'running' && call.started_at !== null) {
      // The call started before anyone streamed it, so no worker published its `started`.
      sink.send('started', {
        type: 'started',
        call_id: call.id,
        tool: call.tool.name,
        at: Date.parse(call.started_at),
        attempt: Math.max(1, call.attempts),
      });
    }
    if (FINAL.has(call.status)) {
      finish();
      return;
    }
    replaying = false;
    for (const event of buffered) deliver(event);
  }
}
