import { Inject, Injectable } from '@nestjs/common';
import { CallExecutionService } from './call-execution.service';

/** Nest injection token of the `CallDispatcher`. */
export const CALL_DISPATCHER = Symbol('toolgate.call-dispatcher');

/**
 * Hands recorded (queued) calls to whatever executes them. The embedded dispatcher runs them in
 * this process; with REDIS_URL, `BullMqCallDispatcher` enqueues `{call_id, after}` jobs on
 * QueueName.ToolCalls for the worker fleet instead.
 */
export interface CallDispatcher {
  dispatch(callIds: readonly string[]): void;
  /** Told after a call was marked cancelled: stops it if it is executing and tells its listeners. */
  cancelled(call: { id: string; tool: string }): void;
}

/** Executes calls in-process through the engine (the embedded mode and tests). */
@Injectable()
export class EmbeddedCallDispatcher implements CallDispatcher {
  constructor(@Inject(CallExecutionService) private readonly execution: CallExecutionService) {}

  dispatch(callIds: readonly string[]): void {
    if (callIds.length > 0) this.execution.start(callIds);
  }

  cancelled(call: { id: string; tool: string }): void {
    this.execution.cancelled(call);
  }
}
