import { Injectable } from '@nestjs/common';

/**
 * `tools/call` requests running on this replica, so a `notifications/cancelled` can reach them.
 * Stateless Streamable HTTP delivers the cancellation in its own POST to a fresh server that never
 * saw the request, and a JSON-RPC id is unique only per client: requests are therefore tracked
 * only when the client names its conversation (`x-toolgate-conversation-id`), keyed by caller,
 * conversation and request id, so one client cannot cancel another's call.
 */
@Injectable()
export class McpInFlightRegistry {
  private readonly controllers = new Map<string, AbortController>();

  /** Tracks a request until `release` is called; its signal aborts on a matching cancellation. */
  track(key: string): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    this.controllers.set(key, controller);
    return {
      signal: controller.signal,
      release: () => {
        if (this.controllers.get(key) === controller) this.controllers.delete(key);
      },
    };
  }

  /** Aborts the tracked request; false when none runs here under that key. */
  cancel(key: string, reason: string | undefined): boolean {
    const controller = this.controllers.get(key);
    if (controller === undefined) return false;
    controller.abort(new Error(reason ?? 'cancelled by the client'));
    return true;
  }
}

/** The registry key of one client request (the parts joined with a separator no header holds). */
export function inFlightKey(parts: {
  actor: string;
  conversationId: string;
  requestId: string | number;
}): string {
  return [parts.actor, parts.conversationId, typeof parts.requestId, String(parts.requestId)].join(
    '\u0000',
  );
}
