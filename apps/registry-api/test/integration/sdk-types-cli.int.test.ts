import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '@toolgate/sdk/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  createTool,
  publish,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let baseUrl: string;
let team: TestTeam;
let weather: TestTool;
let sql: TestTool;
let dir: string;

const weatherParameters = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
  },
  required: ['city'],
  additionalProperties: false,
};
const weatherOutput = {
  type: 'object',
  properties: { temperature: { type: 'number' } },
  required: ['temperature'],
};

beforeAll(async () => {
  api = await startTestApp();
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  weather = await createTool(api, team);
  const weatherIr = weather.ir.parameters(weatherParameters).with({ outputSchema: weatherOutput });
  await publish(api, team, weather, '1.0.0', weatherIr);
  await publish(api, team, weather, '1.1.0', weatherIr);
  sql = await createTool(api, team);
  await publish(
    api,
    team,
    sql,
    '2.0.0',
    sql.ir
      .with({
        input_format: { type: 'text', grammar: { syntax: 'regex', definition: 'SELECT .+' } },
      })
      .parameters({
        type: 'object',
        properties: { input: { type: 'string' } },
        required: ['input'],
        additionalProperties: false,
      }),
  );
  dir = await mkdtemp(path.join(tmpdir(), 'toolgate-types-'));
});
afterAll(async () => {
  await api?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

async function toolgate(
  args: string[],
  env: Record<string, string> = { TOOLGATE_URL: baseUrl, TOOLGATE_API_KEY: team.key },
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
    cwd: dir,
  });
  return { code, stdout, stderr };
}

const read = (file: string): Promise<string> => readFile(path.join(dir, file), 'utf8');

describe('toolgate types', () => {
  it('writes the types of the pinned versions and a lockfile, then reproduces them from the lockfile', async () => {
    const first = await toolgate([
      'types',
      '--pin',
      `${weather.name}@^1`,
      '--pin',
      `${sql.name}@2.0.0`,
    ]);
    expect(first, first.stderr).toMatchObject({ code: 0 });
    const types = await read('toolgate-tools.ts');
    const lockfile = JSON.parse(await read('toolgate-types.lock.json')) as {
      tools: Record<string, { pin: string; version: string; tool_id: string }>;
    };
    expect(lockfile.tools[weather.name]).toMatchObject({
      pin: '^1',
      version: '1.1.0',
      tool_id: weather.id,
    });
    expect(lockfile.tools[sql.name]).toMatchObject({ pin: '2.0.0', version: '2.0.0' });
    expect(types).toContain('city: string');
    expect(types).toContain('unit?: ("c" | "f")');
    expect(types).toContain('temperature: number');
    expect(types).toContain('input: string');

    // A newer match of the pin is published: the lockfile keeps the locked version, byte for byte.
    await publish(api, team, weather, '1.2.0', weather.ir.parameters(weatherParameters));
    const again = await toolgate([
      'types',
      '--pin',
      `${weather.name}@^1`,
      '--pin',
      `${sql.name}@2.0.0`,
    ]);
    expect(again, again.stderr).toMatchObject({ code: 0 });
    expect(await read('toolgate-tools.ts')).toBe(types);
    const lockText = await read('toolgate-types.lock.json');
    expect(JSON.parse(lockText)).toEqual(lockfile);
    // Without pins, the lockfile's tools are generated again.
    expect((await toolgate(['types'])).code).toBe(0);
    expect(await read('toolgate-tools.ts')).toBe(types);
    expect(await read('toolgate-types.lock.json')).toBe(lockText);

    // --update resolves the pins again: 1.2.0 declares no output schema, so its result is unknown.
    const updated = await toolgate(['types', '--update', '--pin', `${weather.name}@^1`]);
    expect(updated, updated.stderr).toMatchObject({ code: 0 });
    expect(await read('toolgate-types.lock.json')).toContain('"version": "1.2.0"');
    expect(await read('toolgate-tools.ts')).not.toContain('temperature');
  });

  it('refuses, with a clear message and exit code 1, what the registry refuses', async () => {
    const out = ['--out', 'refused.ts', '--lockfile', 'refused.lock.json'];
    const unknown = await toolgate(['types', '--pin', 'no_such_tool@^1', ...out]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no tool named "no_such_tool"');

    const noMatch = await toolgate(['types', '--pin', `${weather.name}@^9`, ...out]);
    expect(noMatch.code).toBe(1);
    expect(noMatch.stderr).toContain('no version matches a pin');

    const badKey = await toolgate(['types', '--pin', `${weather.name}@^1`, ...out], {
      TOOLGATE_URL: baseUrl,
      TOOLGATE_API_KEY: 'tg_not_a_key',
    });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain('refused the API key (401');

    // A port nothing listens on: the connection is refused at once.
    const unreachable = await toolgate(
      ['types', '--pin', `${weather.name}@^1`, '--url', 'http://127.0.0.1:9', ...out],
      { TOOLGATE_API_KEY: team.key },
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('cannot reach the registry at http://127.0.0.1:9');

    const usage = await toolgate(['types', '--pin', `${weather.name}@^1`], {});
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('no registry: give --url or set TOOLGATE_URL');
    await expect(readFile(path.join(dir, 'refused.ts'))).rejects.toThrow();
  });

  it('refuses a lockfile whose locked version no longer has the recorded ToolIR', async () => {
    const files = ['--out', 'tampered.ts', '--lockfile', 'tampered.lock.json'];
    expect((await toolgate(['types', '--pin', `${sql.name}@2.0.0`, ...files])).code).toBe(0);
    const lock = JSON.parse(await read('tampered.lock.json')) as {
      tools: Record<string, { integrity: string }>;
    };
    const entry = lock.tools[sql.name];
    if (entry === undefined) throw new Error('the lockfile lacks the tool');
    entry.integrity = 'sha256-AAAA';
    await writeFile(path.join(dir, 'tampered.lock.json'), JSON.stringify(lock));
    const result = await toolgate(['types', ...files]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${sql.name}@2.0.0 is not what the lockfile recorded`);
  });
});
