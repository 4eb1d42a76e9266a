import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, createTool, publish, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

describe('a draft in exports', () => {
  it('is previewed by an exact pin, and never reached by stable, a range or an unpinned export', async () => {
    const tool = await createTool(api, team);
    await publish(api, team, tool, '1.0.0');
    const draft = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions`,
      key: team.key,
      body: { ir: tool.ir.version('1.4.0').build(), status: 'draft' },
    });
    expect(draft.status, draft.text).toBe(201);

    const exported = async (pin: string | null) => {
      const query = pin === null ? '' : `&pin=${encodeURIComponent(`${tool.name}@${pin}`)}`;
      const response = await api.request({
        url: `/v1/exports?format=mcp&names=${tool.name}${query}`,
        key: team.key,
      });
      expect(response.status, response.text).toBe(200);
      const [first] = response.body.resolution as Array<{ version: string; reason: string }>;
      return [first?.version, first?.reason];
    };
    expect(await exported('1.4.0')).toEqual(['1.4.0', 'pinned']);
    expect(await exported('^1.0')).toEqual(['1.0.0', 'pinned']);
    expect((await exported('stable'))[0]).toBe('1.0.0');
    expect(await exported(null)).toEqual(['1.0.0', 'stable']);
  });
});
