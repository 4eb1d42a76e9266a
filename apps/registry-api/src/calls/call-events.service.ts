import { Inject, Injectable } from '@nestjs/common';
import type {
  Call,
  CallStatus,
  CallStreamEventData,
  CallStreamEventName,
} from '@toolgate/contract';
import { FINAL_CALL_STATUSES } from '@toolgate/persistence';
import type { Principal } from '../auth/principal';
import { CallEventBus, type CallEvent } from './call-event-bus';
import { CallsService } from './calls.service';
import { finalEventOfRow } from './final-call-event';
import { GatewayHost } from './gateway-host';

/** Where a call's event stream goes (an SSE response in the controller). */
export interface CallEventSink {
  /** One event; its data is what the contract's schema of that event name describes. */
  send<TName extends CallStreamEventName>(event: TName, data: CallStreamEventData<TName>): void;
  end(): void;
  /** Registers what to do when the client goes away. */
  onClose(listener: () => void): void;
}

const FINAL = new Set<CallStatus>(FINAL_CALL_STATUSES);

// How often an open stream re-reads its call (one row by primary key): the bus may have lost the
// event that ends it, and a stream must end once its call is final.
const RECHECK_MS = 1_500;

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
    let stopChecking: () => void = () => undefined;
    const stop = () => {
      closed = true;
      unsubscribe();
      stopChecking();
    };
    const finish = () => {
      if (closed) return;
      stop();
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
    sink.onClose(stop);
    let call: Call;
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
    if (!closed) stopChecking = this.checkFinal(principal, callId, deliver);
  }

  /**
   * Re-reads the call on a timer and whenever the bus reconnects, and delivers its final event
   * from the record once it is final; returns the function that stops it.
   */
  private checkFinal(
    principal: Principal,
    callId: string,
    deliver: (event: CallEvent) => void,
  ): () => void {
    let reading = false;
    const check = () => {
      if (reading) return;
      reading = true;
      this.gateway.calls
        .findById(callId, principal.teamId)
        .then((row) => {
          const event = row === undefined ? undefined : finalEventOfRow(row);
          if (event !== undefined) deliver(event);
        })
        // The database may be briefly unreachable too; the next check reads again.
        .catch(() => undefined)
        .finally(() => (reading = false));
    };
    const timer = setInterval(check, RECHECK_MS);
    const stopResync = this.bus.onResync(check);
    return () => {
      clearInterval(timer);
      stopResync();
    };
  }
}
