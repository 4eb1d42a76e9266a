// What an upstream MCP server asks during a call (sampling, elicitation, log messages) reaches the
// /mcp client that made the call, in its session, and its answer goes back upstream; a caller that
// cannot answer (a REST call, a client without the capability) is refused at once, never waited on.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, type TestTeam } from '../factories/registry.factory';
import {
  askModelOverRest,
  connectAskedClient,
  importAskingUpstream,
  REST_REFUSAL,
  resultText,
  startAskingUpstream,
  type AskedClient,
  type AskingUpstream,
} from '../support/asking-upstream';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let upstream: AskingUpstream;
let team: TestTeam;
let baseUrl: string;
const clients: AskedClient[] = [];

async function connect(answers?: { elicitation: 'accept' | 'decline' }): Promise<AskedClient> {
  const asked = await connectAskedClient(baseUrl, team.key, answers);
  clients.push(asked);
  return asked;
}

beforeAll(async () => {
  api = await startTestApp();
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  upstream = await startAskingUpstream();
  await importAskingUpstream(api, team, upstream);
});

afterAll(async () => {
  await Promise.all(clients.map((asked) => asked.client.close()));
  await api?.close();
  await upstream?.[Symbol.asyncDispose]();
});

describe('relaying what an upstream asks to the /mcp client', () => {
  it("relays sampling to the caller's client and its completion back upstream", async () => {
    const asked = await connect({ elicitation: 'accept' });
    const result = await asked.client.callTool({
      name: 'ask_model',
      arguments: { prompt: 'name a fish' },
    });
    expect(result.isError ?? false).toBe(false);
    expect(resultText(result)).toBe('model said: echo name a fish');
    expect(asked.prompts).toEqual(['name a fish']);
  });

  it("relays elicitation to the caller's client, accepted or declined", async () => {
    const accepting = await connect({ elicitation: 'accept' });
    const accepted = await accepting.client.callTool({ name: 'ask_user', arguments: {} });
    expect(resultText(accepted)).toBe('user accept: {"city":"Porto"}');
    const declining = await connect({ elicitation: 'decline' });
    const declined = await declining.client.callTool({ name: 'ask_user', arguments: {} });
    expect(resultText(declined)).toBe('user decline: {}');
  });

  it("relays roots/list to the caller's client", async () => {
    const asked = await connect({ elicitation: 'accept' });
    const result = await asked.client.callTool({ name: 'list_roots', arguments: {} });
    expect(resultText(result)).toBe('roots: file:///work/project');
    const refused = await (await connect()).client.callTool({ name: 'list_roots', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain('did not declare the roots capability');
  });

  it("relays the upstream's log messages at the level the session asked for", async () => {
    const asked = await connect();
    await asked.client.setLoggingLevel('info');
    const result = await asked.client.callTool({ name: 'log_steps', arguments: {} });
    expect(resultText(result)).toBe('logged');
    expect(asked.logs).toEqual(['info: step 1: started', 'warning: step 2: slow disk']);
  });

  it('refuses sampling at once for a client that did not declare it', async () => {
    const asked = await connect();
    const result = await asked.client.callTool({ name: 'ask_model', arguments: { prompt: 'hi' } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(
      'sampling/createMessage cannot be answered: the MCP client that made this call did not ' +
        'declare the sampling capability.',
    );
    expect(asked.prompts).toEqual([]);
  });

  it('refuses sampling at once for a REST call, which has no client to ask', async () => {
    expect(await askModelOverRest(api, team)).toContain(REST_REFUSAL);
  });

  it('records the session a call came from and what its client can answer', async () => {
    const asked = await connect({ elicitation: 'accept' });
    await asked.client.callTool({ name: 'ask_model', arguments: { prompt: 'record me' } });
    const rows = await api.sql<{ client_relay: Record<string, unknown> | null }>(
      `SELECT client_relay FROM calls WHERE team_id = $1 AND arguments->>'prompt' = 'record me'`,
      [team.id],
    );
    expect(rows).toEqual([
      {
        client_relay: {
          session_id: expect.any(String),
          relay_id: expect.any(String),
          capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
        },
      },
    ]);
  });
});
