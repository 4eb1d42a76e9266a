import type { RelayedMessage } from '@toolgate/engine';
import { describe, expect, it } from 'vitest';
import { InProcessClientRelayChannel } from './client-relay-channel';
import { ClientRelayHub, type RelayedClient } from './client-relay-hub';

const TARGET = { session_id: 'session-1', relay_id: 'relay-1', capabilities: { sampling: {} } };
const SAMPLE: RelayedMessage = { method: 'sampling/createMessage', params: { maxTokens: 5 } };

function hubs() {
  const channel = new InProcessClientRelayChannel();
  return { runner: new ClientRelayHub(channel), session: new ClientRelayHub(channel) };
}

function later(ms: number): number {
  return Date.now() + ms;
}

describe('ClientRelayHub', () => {
  it("takes a request to the client following the call's relay and its answer back", async () => {
    const { runner, session } = hubs();
    const asked: RelayedMessage[] = [];
    const client: RelayedClient = {
      request: (message) => {
        asked.push(message);
        return Promise.resolve({ result: { role: 'assistant', model: 'm' } });
      },
      notify: () => undefined,
    };
    const stop = await session.follow(TARGET.relay_id, client);
    const relay = runner.relayFor(TARGET);
    expect(relay?.capabilities).toEqual({ sampling: {} });
    const answer = await relay?.request(SAMPLE, {
      signal: new AbortController().signal,
      deadlineAt: later(10_000),
    });
    expect(answer).toEqual({ result: { role: 'assistant', model: 'm' } });
    expect(asked).toEqual([SAMPLE]);
    stop();
  });

  it('passes notifications on', async () => {
    const { runner, session } = hubs();
    let heard: (message: RelayedMessage) => void = () => undefined;
    const received = new Promise<RelayedMessage>((resolve) => {
      heard = resolve;
    });
    await session.follow(TARGET.relay_id, {
      request: () => Promise.resolve({ result: {} }),
      notify: (message) => heard(message),
    });
    const log = { method: 'notifications/message', params: { level: 'info', data: 'x' } };
    runner.relayFor(TARGET)?.notify(log);
    await expect(received).resolves.toEqual(log);
  });

  it('has no relay for a call without a client to ask', () => {
    expect(hubs().runner.relayFor(undefined)).toBeUndefined();
  });

  it('answers with an error at once when nobody follows the relay', async () => {
    const { runner } = hubs();
    const answer = await runner.relayFor(TARGET)?.request(SAMPLE, {
      signal: new AbortController().signal,
      deadlineAt: later(60_000),
    });
    expect(answer).toEqual({
      error: {
        code: -32603,
        message:
          'The MCP client that made this call is no longer waiting for it, so it cannot be asked.',
      },
    });
  });

  it("answers with a timeout at the call's deadline, and the client's request is cancelled", async () => {
    const { runner, session } = hubs();
    let clientSignal: AbortSignal | undefined;
    await session.follow(TARGET.relay_id, {
      request: (_message, { signal }) => {
        clientSignal = signal;
        return new Promise(() => undefined);
      },
      notify: () => undefined,
    });
    const answer = await runner.relayFor(TARGET)?.request(SAMPLE, {
      signal: new AbortController().signal,
      deadlineAt: later(20),
    });
    expect(answer).toMatchObject({ error: { code: -32001 } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(clientSignal?.aborted).toBe(true);
  });

  it('answers with an error when the call ends first, and cancels the client request', async () => {
    const { runner, session } = hubs();
    const call = new AbortController();
    let clientSignal: AbortSignal | undefined;
    await session.follow(TARGET.relay_id, {
      request: (_message, { signal }) => {
        clientSignal = signal;
        call.abort();
        return new Promise(() => undefined);
      },
      notify: () => undefined,
    });
    const answer = await runner.relayFor(TARGET)?.request(SAMPLE, {
      signal: call.signal,
      deadlineAt: later(60_000),
    });
    expect(answer).toEqual({
      error: { code: -32603, message: 'The call ended before the client answered.' },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(clientSignal?.aborted).toBe(true);
  });

  it('answers what is still waiting when it closes', async () => {
    const { runner, session } = hubs();
    await session.follow(TARGET.relay_id, {
      request: () => new Promise(() => undefined),
      notify: () => undefined,
    });
    const asking = runner.relayFor(TARGET)?.request(SAMPLE, {
      signal: new AbortController().signal,
      deadlineAt: later(60_000),
    });
    await new Promise((resolve) => setImmediate(resolve));
    await runner.close();
    await expect(asking).resolves.toMatchObject({ error: { code: -32603 } });
  });
});
