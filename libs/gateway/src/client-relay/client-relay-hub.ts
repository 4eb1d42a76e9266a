import { randomUUID } from 'node:crypto';
import type {
  EngineLogger,
  McpClientRelay,
  RelayedAnswer,
  RelayedMessage,
} from '@toolgate/engine';
import { silentLogger } from '@toolgate/engine';
import type { ClientRelayTarget } from '@toolgate/persistence';
import type { ClientRelayChannel } from './client-relay-channel';
import type { ClientAnswerMessage, ToClientMessage } from './client-relay-messages';

// JSON-RPC error codes of relay failures: the SDK's RequestTimeout, and the spec's internal error.
const REQUEST_TIMEOUT = -32001;
const INTERNAL_ERROR = -32603;

/** The client end of a relay, where the session is: asks its client, passes notifications on. */
export type RelayedClient = Omit<McpClientRelay, 'capabilities'>;

function failed(code: number, message: string): RelayedAnswer {
  return { error: { code, message } };
}

/**
 * Relays what upstream MCP servers ask during calls to the clients that made them, over one
 * channel, in both directions: a runner gets an `McpClientRelay` for a recorded call
 * (`relayFor`), the API process holding the call's MCP session follows the call's relay while it
 * waits for the result (`follow`). The same whether the call runs in that process or in a worker.
 * A request is answered with an error, never left waiting, when nobody follows the relay, when the
 * call's attempt ends (its deadline, a cancellation) or the client gives no answer in time.
 */
export class ClientRelayHub {
  private readonly pending = new Map<string, (answer: RelayedAnswer) => void>();
  private readonly runnerId = `relay-${randomUUID()}`;
  private answers: Promise<() => void> | undefined;
  private readonly logger: EngineLogger;
  private readonly now: () => number;

  constructor(
    private readonly channel: ClientRelayChannel,
    options: { logger?: EngineLogger; now?: () => number } = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
  }

  /** The relay a runner gives the engine for a call, or none when the call has no client to ask. */
  relayFor(target: ClientRelayTarget | undefined): McpClientRelay | undefined {
    if (target === undefined) return undefined;
    const relayId = target.relay_id;
    return {
      capabilities: target.capabilities,
      request: (message, options) => this.ask(relayId, message, options),
      notify: (message) => {
        this.channel
          .toClient(relayId, { type: 'notification', relay_id: relayId, ...message })
          .catch((error: unknown) =>
            this.logger.warn({ err: error, relay_id: relayId }, 'relaying a notification failed'),
          );
      },
    };
  }

  /**
   * Follows relay `relayId` for `client` until the returned function runs: what the call's upstream
   * asks goes to the client, and its answer back to the runner that asked.
   */
  async follow(relayId: string, client: RelayedClient): Promise<() => void> {
    const running = new Map<string, AbortController>();
    const stop = await this.channel.followClient(relayId, (message) =>
      this.received(message, { client, running }),
    );
    return () => {
      stop();
      for (const controller of running.values()) controller.abort(new Error('relay closed'));
    };
  }

  /** Closes the hub and its channel; requests still waiting are answered with an error. */
  async close(): Promise<void> {
    for (const resolve of this.pending.values()) {
      resolve(failed(INTERNAL_ERROR, 'Toolgate stopped before the client answered.'));
    }
    this.pending.clear();
    const stop = await this.answers?.catch(() => undefined);
    stop?.();
    await this.channel.close();
  }

  private received(
    message: ToClientMessage,
    where: { client: RelayedClient; running: Map<string, AbortController> },
  ): void {
    const { client, running } = where;
    switch (message.type) {
      case 'notification':
        client.notify({
          method: message.method,
          ...(message.params === undefined ? {} : { params: message.params }),
        });
        return;
      case 'cancel':
        running.get(message.request_id)?.abort(new Error('the call ended'));
        return;
      case 'request': {
        const controller = new AbortController();
        running.set(message.request_id, controller);
        const relayed: RelayedMessage = {
          method: message.method,
          ...(message.params === undefined ? {} : { params: message.params }),
        };
        void client
          .request(relayed, { signal: controller.signal, deadlineAt: message.deadline_at })
          .catch((error: unknown): RelayedAnswer => {
            this.logger.warn({ err: error, method: message.method }, 'a relayed request failed');
            return failed(INTERNAL_ERROR, 'The client could not be asked.');
          })
          .then((answer) =>
            this.channel.toRunner(message.reply_to, { request_id: message.request_id, answer }),
          )
          .catch((error: unknown) =>
            this.logger.warn({ err: error }, 'sending a client answer to its runner failed'),
          )
          .finally(() => running.delete(message.request_id));
        return;
      }
    }
  }

  private async ask(
    relayId: string,
    message: RelayedMessage,
    options: { signal: AbortSignal; deadlineAt: number },
  ): Promise<RelayedAnswer> {
    const { signal, deadlineAt } = options;
    if (signal.aborted) return failed(INTERNAL_ERROR, 'The call ended before the client was asked.');
    const requestId = randomUUID();
    let resolveAnswer: (answer: RelayedAnswer) => void = () => undefined;
    const answered = new Promise<RelayedAnswer>((resolve) => {
      resolveAnswer = resolve;
    });
    this.pending.set(requestId, resolveAnswer);
    const cancel = (reason: string, answer: RelayedAnswer) => {
      resolveAnswer(answer);
      this.channel
        .toClient(relayId, { type: 'cancel', relay_id: relayId, request_id: requestId })
        .catch(() => undefined);
      this.logger.debug({ relay_id: relayId, method: message.method }, reason);
    };
    const onAbort = () =>
      cancel('relayed request cancelled', failed(INTERNAL_ERROR, 'The call ended before the client answered.'));
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () =>
        cancel(
          'relayed request timed out',
          failed(REQUEST_TIMEOUT, 'The client did not answer before the call’s deadline.'),
        ),
      Math.max(0, deadlineAt - this.now()),
    );
    try {
      this.answers ??= this.channel.followRunner(this.runnerId, (answer) => this.answered(answer));
      await this.answers;
      const receivers = await this.channel.toClient(relayId, {
        type: 'request',
        relay_id: relayId,
        request_id: requestId,
        reply_to: this.runnerId,
        method: message.method,
        ...(message.params === undefined ? {} : { params: message.params }),
        deadline_at: deadlineAt,
      });
      if (receivers === 0) {
        resolveAnswer(
          failed(
            INTERNAL_ERROR,
            'The MCP client that made this call is no longer waiting for it, so it cannot be asked.',
          ),
        );
      }
    } catch (error) {
      this.logger.warn({ err: error, relay_id: relayId }, 'relaying a request failed');
      resolveAnswer(failed(INTERNAL_ERROR, 'Toolgate could not reach the client that made this call.'));
    }
    try {
      return await answered;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.pending.delete(requestId);
    }
  }

  private answered(message: ClientAnswerMessage): void {
    const resolve = this.pending.get(message.request_id);
    if (resolve === undefined) return;
    this.pending.delete(message.request_id);
    resolve(message.answer);
  }
}
