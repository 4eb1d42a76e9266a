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

describe('tool lists carry badges', () => {
  it('destructive and imported from the stable version, deprecations with their sunset', async () => {
    const tool = await createTool(api, team, { tags: ['badges'] });
    const destructive = tool.ir.with({
      behavior: { readonly: false, destructive: true, idempotent: false },
    });
    await publish(api, team, tool, '1.0.0', destructive);
    await publish(api, team, tool, '1.1.0', destructive);
    const sunset = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const deprecated = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: sunset, successor: '1.1.0' },
    });
    expect(deprecated.status, deprecated.text).toBe(200);
    const plain = await createTool(api, team, { tags: ['badges'] });
    await publish(api, team, plain, '1.0.0');
    // a version written by an import says where it came from in protocol_meta
    await api.sql(
      `UPDATE tool_versions SET ir = jsonb_set(ir, '{protocol_meta}', '{"toolgate":{"source":{"kind":"mcp"}}}')
        WHERE tool_id = $1::uuid`,
      [plain.id],
    );

    for (const url of [`/v1/tools?tag=badges&limit=10`, `/v1/tools?q=${tool.name}&limit=10`]) {
      const list = await api.request({ url, key: team.key });
      expect(list.status, list.text).toBe(200);
      const byId = new Map(
        (list.body.items as Array<{ id: string; badges: unknown }>).map((item) => [
          item.id,
          item.badges,
        ]),
      );
      expect(byId.get(tool.id)).toEqual({
        destructive: true,
        imported_from: null,
        deprecated: [{ version: '1.0.0', sunset_at: new Date(sunset).toISOString() }],
      });
      if (url.includes('tag=')) {
        expect(byId.get(plain.id)).toEqual({
          destructive: false,
          imported_from: 'mcp',
          deprecated: [],
        });
      }
    }
  });
});
