import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, createTool, publish, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

// A version declares how a run undoes its calls (compensation) and which resource version its
// writes expect (concurrency): kept with the version, diffed like its other fields, and refused
// where it cannot mean anything.
let api: TestApp;
let team: TestTeam;

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

const WRITE = { readonly: false, destructive: false, idempotent: false };
const COMPENSATION = {
  tool: 'cancel_order',
  arguments: { order_id: { from: '/result/order_id' }, reason: { value: 'compensation' } },
};
const CONCURRENCY = {
  resource: { type: 'order', id: '/arguments/order_id' },
  version: { header: 'ETag' },
  expected: { header: 'If-Match' },
};

describe('write declarations on a version', () => {
  it('keeps compensation and concurrency with the version and shows them in the diff', async () => {
    const tool = await createTool(api, team);
    const write = tool.ir.with({ behavior: WRITE });
    await publish(api, team, tool, '1.0.0', write);
    await publish(
      api,
      team,
      tool,
      '1.1.0',
      write.with({ compensation: COMPENSATION, concurrency: CONCURRENCY }),
    );
    const stored = await api.request({
      url: `/v1/tools/${tool.id}/versions/1.1.0`,
      key: team.key,
    });
    expect(stored.body.ir).toMatchObject({
      compensation: COMPENSATION,
      concurrency: CONCURRENCY,
    });
    const diff = await api.request({
      url: `/v1/tools/${tool.id}/diff?from=1.0.0&to=1.1.0`,
      key: team.key,
    });
    expect(diff.status, diff.text).toBe(200);
    expect(diff.body).toMatchObject({
      breaking: false,
      changes: [
        { kind: 'compensation_changed', path: '/compensation', breaking: false },
        { kind: 'concurrency_changed', path: '/concurrency', breaking: false },
      ],
    });
  });

  it('refuses a compensation on a readonly tool and pointers outside the call, naming each', async () => {
    const tool = await createTool(api, team);
    const refused = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions`,
      key: team.key,
      body: {
        ir: tool.ir
          .with({
            compensation: { tool: 'undo', arguments: { id: { from: '/output/id' } } },
          })
          .version('1.0.0')
          .build(),
      },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    const paths = (refused.body.errors as { path: string }[]).map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/body\/ir\/compensation/)]),
    );
    const versions = await api.request({ url: `/v1/tools/${tool.id}/versions`, key: team.key });
    expect(versions.body.items).toEqual([]);
  });
});
