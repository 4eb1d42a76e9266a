// The embedded default (PGlite) answers the reports that read the calls table with array
// parameters — release health, the canary guard's evaluation and the SLO page — as Postgres does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;

beforeAll(async () => {
  api = await startTestApp({}, { database: 'pglite' });
  team = await createTeam(api);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe('reports on the embedded default', () => {
  it('answers release health, guard evaluation and the SLO of every window', async () => {
    const tool = await createTool(api, team);
    const ir = (version: string) =>
      tool.ir.version(version).with({
        behavior: { readonly: true, destructive: false, idempotent: true },
        protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'toolgate.echo' } } },
      });
    await publish(api, team, tool, '1.0.0', ir('1.0.0'));
    await publish(api, team, tool, '1.1.0', ir('1.1.0'));
    await setStable(api, team, tool, '1.0.0');
    const canary = await api.request({
      method: 'PUT',
      url: `/v1/tools/${tool.id}/release/canary`,
      key: team.key,
      body: { version: '1.1.0', percent: 50 },
    });
    expect(canary.status, canary.text).toBe(200);
    for (let index = 0; index < 6; index += 1) {
      const call = await api.request({
        method: 'POST',
        url: '/v1/calls/ir?wait_ms=5000',
        key: team.key,
        body: [{ id: `c_${index}`, name: tool.name, arguments: { query: `q${index}` } }],
      });
      expect(call.status, call.text).toBe(200);
    }

    const health = await api.request({ url: `/v1/tools/${tool.id}/release/health`, key: team.key });
    expect(health.status, health.text).toBe(200);
    expect(health.body).toMatchObject({ tool_id: tool.id, stable_version: '1.0.0' });

    const evaluated = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/release/guard/evaluate`,
      key: team.key,
    });
    expect(evaluated.status, evaluated.text).toBe(200);

    for (const window of ['1h', '24h', '7d']) {
      const slo = await api.request({ url: `/v1/metrics/slo?window=${window}`, key: team.key });
      expect(slo.status, `${window}: ${slo.text}`).toBe(200);
    }
  });
});
