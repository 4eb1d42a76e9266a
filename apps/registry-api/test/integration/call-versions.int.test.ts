import type { AddressInfo } from 'node:net';
import { BuiltinExecutor } from '@toolgate/engine';
import { Toolgate } from '@toolgate/sdk';
import { openAIChatCompletion, startFakeProvider } from '@toolgate/sdk/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAIChatMessage } from '../factories/gateway.factory';
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

// The version a model is shown decides the arguments it sends: 1.0.0 asks for a city, 2.0.0 for a
// city and a country. A call must run the version its export showed, not today's stable one.
let api: TestApp;
let baseUrl: string;
let team: TestTeam;
let tool: TestTool;

const V1_PARAMETERS = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 1 } },
  required: ['city'],
};
const V2_PARAMETERS = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    country: { type: 'string', minLength: 2 },
  },
  required: ['city', 'country'],
};

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('forecast', (args) => ({
    city: String(args['city']),
    temperature: 21,
  }));
  api = await startTestApp({}, { builtins });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

beforeEach(async () => {
  tool = await createTool(api, team);
  const base = tool.ir.with({
    protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'forecast' } } },
  });
  await publish(api, team, tool, '1.0.0', base.parameters(V1_PARAMETERS));
  await publish(api, team, tool, '2.0.0', base.parameters(V2_PARAMETERS));
});

async function exportOf(query: string, subject?: string) {
  const response = await api.request({
    url: `/v1/exports?format=openai-chat&names=${tool.name}${query}`,
    key: team.key,
    ...(subject === undefined ? {} : { headers: { 'x-toolgate-subject': subject } }),
  });
  expect(response.status, response.text).toBe(200);
  return response.body as {
    snapshot: string;
    resolution: Array<{ name: string; version: string; reason: string }>;
  };
}

/** The model's call as it would send it having seen 1.0.0: a city only. */
function callOslo(id: string, extra: Record<string, unknown> = {}) {
  return api.request({
    method: 'POST',
    url: '/v1/calls',
    key: team.key,
    body: {
      provider: 'openai-chat',
      payload: openAIChatMessage([{ id, name: tool.name, arguments: '{"city":"Oslo"}' }]),
      ...extra,
    },
  });
}

function summaryOf(body: unknown): { status: string; version: string } {
  return (body as { calls: Array<{ status: string; version: string }> }).calls[0] as {
    status: string;
    version: string;
  };
}

describe('a call runs the version its model was shown', () => {
  it('runs the pinned 1.0.0 beside stable 2.0.0 by the export snapshot, a pin or the call', async () => {
    await setStable(api, team, tool, '2.0.0');
    const exported = await exportOf(`&pin=${tool.name}@1.0.0`);
    expect(exported.resolution).toEqual([
      expect.objectContaining({ name: tool.name, version: '1.0.0', reason: 'pinned' }),
    ]);
    expect(exported.snapshot).toMatch(/^snap_[A-Za-z0-9_-]{22}$/);

    // Without either, the release's 2.0.0 runs and the model's arguments do not fit it.
    const unpinned = await callOslo('call_unpinned');
    expect(unpinned.status, unpinned.text).toBe(200);
    expect(summaryOf(unpinned.body)).toEqual(
      expect.objectContaining({ status: 'failed', version: '2.0.0' }),
    );
    expect(unpinned.text).toContain('invalid_arguments');

    const bySnapshot = await callOslo('call_snapshot', { snapshot: exported.snapshot });
    expect(bySnapshot.status, bySnapshot.text).toBe(200);
    expect(summaryOf(bySnapshot.body)).toEqual({
      id: expect.any(String),
      status: 'succeeded',
      tool: tool.name,
      version: '1.0.0',
    });

    const byPin = await callOslo('call_pin', { pins: { [tool.name]: '^1' } });
    expect(summaryOf(byPin.body)).toMatchObject({ status: 'succeeded', version: '1.0.0' });

    // A pin wins over the snapshot for its tool.
    const both = await callOslo('call_both', {
      snapshot: exported.snapshot,
      pins: { [tool.name]: 'stable' },
    });
    expect(summaryOf(both.body)).toMatchObject({ status: 'failed', version: '2.0.0' });

    const ir = await api.request({
      method: 'POST',
      url: `/v1/calls/ir?snapshot=${exported.snapshot}`,
      key: team.key,
      body: [
        { id: 'ir_snapshot', name: tool.name, arguments: { city: 'Oslo' } },
        { id: 'ir_own', name: tool.name, arguments: { city: 'Oslo' }, tool_version: '2.0.0' },
      ],
    });
    expect(ir.status, ir.text).toBe(200);
    const calls = (ir.body as { calls: Array<{ version: string; status: string }> }).calls;
    expect(calls.map((call) => `${call.version}:${call.status}`)).toEqual([
      '1.0.0:succeeded',
      '2.0.0:failed',
    ]);

    const recorded = await api.database.prisma.call.findMany({
      where: { teamId: team.id, toolId: tool.id },
      select: { providerCallId: true, toolVersion: true },
    });
    expect(
      Object.fromEntries(recorded.map((row) => [row.providerCallId, row.toolVersion])),
    ).toEqual({
      call_unpinned: '2.0.0',
      call_snapshot: '1.0.0',
      call_pin: '1.0.0',
      call_both: '2.0.0',
      ir_snapshot: '1.0.0',
      ir_own: '2.0.0',
    });
  });

  it('runs the version of a snapshot taken before a promote', async () => {
    await setStable(api, team, tool, '1.0.0');
    const before = await exportOf('');
    expect(before.resolution[0]).toMatchObject({ version: '1.0.0', reason: 'stable' });
    await setStable(api, team, tool, '2.0.0');
    const after = await exportOf('');
    expect(after.resolution[0]).toMatchObject({ version: '2.0.0' });
    expect(after.snapshot).not.toBe(before.snapshot);

    const old = await callOslo('call_old', { snapshot: before.snapshot });
    expect(summaryOf(old.body)).toMatchObject({ status: 'succeeded', version: '1.0.0' });
    const current = await callOslo('call_new', { snapshot: after.snapshot });
    expect(summaryOf(current.body)).toMatchObject({ status: 'failed', version: '2.0.0' });
    // Equal resolutions share one handle.
    expect((await exportOf('')).snapshot).toBe(after.snapshot);
  });

  it('buckets a canary subject the same way for its export and its calls', async () => {
    await setStable(api, team, tool, '1.0.0');
    const canary = await api.request({
      method: 'PUT',
      url: `/v1/tools/${tool.id}/release/canary`,
      key: team.key,
      body: { version: '2.0.0', percent: 50 },
    });
    expect(canary.status, canary.text).toBe(200);
    const sides = new Set<string>();
    for (let index = 0; index < 24; index += 1) {
      const subject = `user-${index}`;
      const shown = (await exportOf('', subject)).resolution[0]?.version;
      const called = await api.request({
        method: 'POST',
        url: '/v1/calls/ir',
        key: team.key,
        headers: { 'x-toolgate-subject': subject },
        body: [{ id: `canary_${index}`, name: tool.name, arguments: { city: 'Oslo' } }],
      });
      expect(called.status, called.text).toBe(200);
      expect(summaryOf(called.body).version, subject).toBe(shown);
      sides.add(String(shown));
    }
    // 24 subjects at 50%: both sides are served (the chance of one side only is 2^-23).
    expect([...sides].sort()).toEqual(['1.0.0', '2.0.0']);
  });

  it('answers 410 with the successor for a pinned version past its sunset, and records nothing', async () => {
    await setStable(api, team, tool, '2.0.0');
    const exported = await exportOf(`&pin=${tool.name}@1.0.0`);
    const deprecated = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: new Date(Date.now() + 1_000).toISOString(), successor: '2.0.0' },
    });
    expect(deprecated.status, deprecated.text).toBe(200);
    // Before the sunset the call still runs, with the deprecation named.
    const early = await callOslo('call_early', { snapshot: exported.snapshot });
    expect(summaryOf(early.body)).toMatchObject({ status: 'succeeded', version: '1.0.0' });
    expect(early.headers['deprecation']).toMatch(/^@\d+$/);
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    for (const extra of [{ snapshot: exported.snapshot }, { pins: { [tool.name]: '1.0.0' } }]) {
      const late = await callOslo('call_late', extra);
      expect(late.status, late.text).toBe(410);
      expect(late.headers['content-type']).toContain('application/problem+json');
      expect(late.body).toMatchObject({
        code: 'version_sunset',
        tool_id: tool.id,
        version: '1.0.0',
        successor_version: '2.0.0',
      });
      expect(String(late.headers['link'])).toContain('rel="successor-version"');
    }
    const recorded = await api.database.prisma.call.count({
      where: { teamId: team.id, providerCallId: 'call_late' },
    });
    expect(recorded).toBe(0);
  });

  it('refuses a snapshot no export gave out, recording nothing', async () => {
    await setStable(api, team, tool, '2.0.0');
    for (const snapshot of ['snap_AAAAAAAAAAAAAAAAAAAAAA', 'not-a-snapshot']) {
      const refused = await callOslo('call_unknown_snapshot', { snapshot });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.text).toContain('snapshot');
    }
    const recorded = await api.database.prisma.call.count({
      where: { teamId: team.id, providerCallId: 'call_unknown_snapshot' },
    });
    expect(recorded).toBe(0);
  });
});

describe('the SDK', () => {
  it("runs the loop's calls at the version tools() was pinned to, with no versions passed by the app", async () => {
    await setStable(api, team, tool, '2.0.0');
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const { tools, snapshot, resolution } = await toolgate.tools({
      format: 'openai-chat',
      names: [tool.name],
      pins: { [tool.name]: '1.0.0' },
    });
    expect(resolution[0]).toMatchObject({ version: '1.0.0' });
    const provider = await startFakeProvider([
      {
        json: openAIChatCompletion({
          calls: [{ id: 'call_loop', name: tool.name, arguments: { city: 'Oslo' } }],
        }),
      },
      { json: openAIChatCompletion({ text: 'It is 21 °C in Oslo.' }) },
    ]);
    try {
      const openai = new OpenAI({
        apiKey: 'sk-test',
        baseURL: `${provider.url}/v1`,
        maxRetries: 0,
      });
      const result = await toolgate.runToolLoop({
        provider: 'openai-chat',
        client: openai,
        // A copy of the array, as apps build requests: the tool objects are what is recognized.
        request: {
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'Oslo?' }],
          tools: [...tools],
        },
      });
      expect(result.stopped).toBe('final');
      expect(result.steps[0]?.results[0]).toMatchObject({ ok: true });
      expect(toolgate.versionsOf(tools)).toEqual({ snapshot });
    } finally {
      await provider.close();
    }
    const row = await api.database.prisma.call.findFirst({
      where: { teamId: team.id, providerCallId: 'call_loop' },
    });
    expect(row?.toolVersion).toBe('1.0.0');
  });

  it('sends the snapshot of a revalidated (304) export too', async () => {
    await setStable(api, team, tool, '1.0.0');
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const first = await toolgate.tools({ format: 'openai-chat', names: [tool.name] });
    const again = await toolgate.tools({ format: 'openai-chat', names: [tool.name] });
    expect(again.fromCache).toBe(true);
    expect(toolgate.versionsOf(again.tools)).toEqual({ snapshot: first.snapshot });
    await setStable(api, team, tool, '2.0.0');
    const executed = await toolgate.execute({
      provider: 'openai-chat',
      payload: openAIChatMessage([
        { id: 'call_sdk', name: tool.name, arguments: '{"city":"Oslo"}' },
      ]),
      ...toolgate.versionsOf(again.tools),
    });
    expect(executed.calls[0]).toMatchObject({ status: 'succeeded', version: '1.0.0' });
  });
});
