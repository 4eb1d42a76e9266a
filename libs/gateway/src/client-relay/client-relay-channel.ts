import { addToKeyedSet } from '../events/keyed-sets';
import type { ClientAnswerMessage, ToClientMessage } from './client-relay-messages';

/**
 * How relayed messages travel between the process running a call and the process holding the
 * client's MCP session: in memory when they are one process (the embedded default), over Redis
 * pub/sub between a worker and an API replica. The hub is the same over either.
 */
export interface ClientRelayChannel {
  /** Sends to whoever follows `relayId`; resolves with how many did receive it (0: nobody follows). */
  toClient(relayId: string, message: ToClientMessage): Promise<number>;
  /** Receives what is sent to `relayId` until the returned function runs. */
  followClient(relayId: string, receive: (message: ToClientMessage) => void): Promise<() => void>;
  /** Sends an answer to the runner `runnerId`. */
  toRunner(runnerId: string, message: ClientAnswerMessage): Promise<void>;
  /** Receives the answers sent to `runnerId` until the returned function runs. */
  followRunner(runnerId: string, receive: (message: ClientAnswerMessage) => void): Promise<() => void>;
  /** Releases the channel's connections. */
  close(): Promise<void>;
}

/** The channel within one process. */
export class InProcessClientRelayChannel implements ClientRelayChannel {
  private readonly clients = new Map<string, Set<(message: ToClientMessage) => void>>();
  private readonly runners = new Map<string, Set<(message: ClientAnswerMessage) => void>>();

  toClient(relayId: string, message: ToClientMessage): Promise<number> {
    const receivers = [...(this.clients.get(relayId) ?? [])];
    // Delivered on a later tick, as over Redis: a sender never runs its receiver's code inline.
    for (const receive of receivers) queueMicrotask(() => receive(message));
    return Promise.resolve(receivers.length);
  }

  followClient(relayId: string, receive: (message: ToClientMessage) => void): Promise<() => void> {
    return Promise.resolve(addToKeyedSet(this.clients, relayId, receive));
  }

  toRunner(runnerId: string, message: ClientAnswerMessage): Promise<void> {
    for (const receive of this.runners.get(runnerId) ?? []) queueMicrotask(() => receive(message));
    return Promise.resolve();
  }

  followRunner(
    runnerId: string,
    receive: (message: ClientAnswerMessage) => void,
  ): Promise<() => void> {
    return Promise.resolve(addToKeyedSet(this.runners, runnerId, receive));
  }

  close(): Promise<void> {
    this.clients.clear();
    this.runners.clear();
    return Promise.resolve();
  }
}
