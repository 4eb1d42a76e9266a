import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config';
import { createApp } from '../../src/create-app';
import { openDatabase, type Database } from '../../src/database/database';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, publish, type TestTeam } from '../factories/registry.factory';
import { ADMIN_KEY, startTestApp, type TestApp } from '../support/test-app';

// The poll is pushed out of the test's reach, so a notification can only come through NOTIFY.
// Each test file runs in its own worker process, so this setting stays in this file.
process.env['MCP_CATALOG_POLL_MS'] = '3600000';

const builtins = () => new BuiltinExecutor().registerBuiltin('search', () => ({ hits: [] }));

let replicaA: TestApp;
let replicaB: NestFastifyApplication;
let databaseB: Database;
let baseUrlA: string;
let team: TestTeam;

beforeAll(async () => {
  replicaA = await startTestApp({}, { builtins: builtins() });
  await replicaA.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrlA = `http://127.0.0.1:${(replicaA.app.getHttpServer().address() as AddressInfo).port}`;
  // A second API process on the same database, as a second replica behind a load balancer.
  databaseB = await openDatabase({ kind: 'postgres', url: replicaA.databaseUrl });
  replicaB = await createApp({
    config: loadConfig({
      DATABASE_URL: replicaA.databaseUrl,
      TOOLGATE_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: 'silent',
    }),
    database: databaseB,
    builtins: builtins(),
  });
  await replicaB.init();
  team = await createTeam(replicaA);
});
afterAll(async () => {
  await replicaB?.close();
  await databaseB?.close();
  await replicaA?.close();
  delete process.env['MCP_CATALOG_POLL_MS'];
});

describe('notifications/tools/list_changed across API replicas (Postgres LISTEN/NOTIFY)', () => {
  it('reaches a session on replica A when a release changes on replica B', async () => {
    const tool = await createBuiltinTool(replicaA, team, { handler: 'search' });
    await publish(replicaA, team, tool, '1.1.0');

    const client = new Client({ name: 'toolgate-replica-test', version: '1.0.0' });
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified += 1;
    });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrlA), {
      requestInit: { headers: { authorization: `Bearer ${team.key}` } },
    });
    await client.connect(transport);
    try {
      // The SDK opens the GET stream in the background; wait until replica A holds it.
      const streamDeadline = Date.now() + 5_000;
      for (;;) {
        const probe = await fetch(new URL('/mcp', baseUrlA), {
          headers: {
            authorization: `Bearer ${team.key}`,
            accept: 'text/event-stream',
            'mcp-session-id': transport.sessionId ?? '',
            'mcp-protocol-version': transport.protocolVersion ?? '',
          },
        });
        await probe.body?.cancel();
        if (probe.status === 409 || Date.now() > streamDeadline) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }

      const changed = await replicaB.inject({
        method: 'PUT',
        url: `/v1/tools/${tool.id}/release/stable`,
        headers: { authorization: `Bearer ${team.key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ version: '1.1.0' }),
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const deadline = Date.now() + 5_000;
      while (notified === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(notified).toBe(1);
      const { tools } = await client.listTools();
      expect(tools.find((listed) => listed.name === tool.name)).toBeDefined();
    } finally {
      await client.close();
    }
  });
});
