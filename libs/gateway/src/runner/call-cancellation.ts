/** A running call's cancellation handle: its signal, and `close` once the call is done. */
export interface CancellationHandle {
  signal: AbortSignal;
  close(): void;
}

/**
 * The calls this process runs, by id, so a cancel message from the API can abort the one it names
 * (the engine passes the signal on to the executor, which closes its connection).
 */
export class CallCancellation {
  private readonly controllers = new Map<string, AbortController>();

  open(callId: string): CancellationHandle {
    const controller = new AbortController();
    this.controllers.set(callId, controller);
    return {
      signal: controller.signal,
      close: () => {
        if (this.controllers.get(callId) === controller) this.controllers.delete(callId);
      },
    };
  }

  /** Aborts the call if it runs here; false when it does not. */
  cancel(callId: string): boolean {
    const controller = this.controllers.get(callId);
    if (controller === undefined) return false;
    controller.abort(new Error('cancelled'));
    this.controllers.delete(callId);
    return true;
  }

  /** Calls running here now. */
  get size(): number {
    return this.controllers.size;
  }
}
