import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SEARCH_TOOL_NAME } from '@toolgate/contract';
import { BuiltinExecutor } from '@toolgate/engine';
import {
  anthropicMessage,
  openAIChatCompletion,
  openAIChatTextStream,
  openAIChatToolCallStream,
  startFakeProvider,
  type FakeProviderReply,
} from '@toolgate/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, type TestTeam, type TestTool } from '../factories/registry.factory';
import {
  createConsumerProject,
  packSdk,
  workspacePin,
  type CommandOutput,
  type ConsumerProject,
  type PackedSdk,
} from '../support/sdk-package';
import { onPglite, startTestApp, type TestApp } from '../support/test-app';

const FIXTURE_DIR = path.join(import.meta.dirname, '__fixtures__/sdk-app');
/** The README's examples: each is embedded in libs/sdk/README.md verbatim (a unit test checks that). */
const EXAMPLES_DIR = path.join(import.meta.dirname, '../../../../libs/sdk/examples');
/** The conversation the fixture's ES module app names its calls with. */
const ESM_CONVERSATION = 'sdk-package-esm';
/** Building, packing and installing are most of this file's time; a slow CI machine needs minutes. */
const SETUP_TIMEOUT_MS = 240_000;
/** A strict tsc run over the package's declarations takes seconds, more beside other test files. */
const TEST_TIMEOUT_MS = 120_000;

let packed: PackedSdk;
let consumer: ConsumerProject;
let api: TestApp;
let baseUrl: string;
let team: TestTeam;
let weather: TestTool;
/** The team the README examples run as: its catalog holds the `get_weather` they name. */
let readmeTeam: TestTeam;
let typeChecks: Record<'bundler' | 'node16' | 'examples', Promise<CommandOutput>>;

async function filesIn(dir: string, prefix = ''): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    files[path.join(prefix, path.relative(dir, file))] = await readFile(file, 'utf8');
  }
  return files;
}

async function installPackedSdk(): Promise<void> {
  packed = await packSdk();
  consumer = await createConsumerProject({
    tarball: packed.tarball,
    // What the README tells an app to install beside the SDK.
    dependencies: ['openai', '@anthropic-ai/sdk', 'zod'],
    files: { ...(await filesIn(FIXTURE_DIR)), ...(await filesIn(EXAMPLES_DIR, 'examples')) },
  });
}

async function startApi(): Promise<void> {
  const builtins = new BuiltinExecutor()
    .registerBuiltin('weather', (args) => ({ city: String(args['query']), temperature: 21 }))
    .registerBuiltin('city_weather', (args) => ({ city: String(args['city']), temperature: 21 }));
  api = await startTestApp({}, { builtins });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  weather = await createBuiltinTool(api, team, { handler: 'weather' });
  readmeTeam = await createTeam(api);
  await createBuiltinTool(api, readmeTeam, {
    handler: 'city_weather',
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 } },
      required: ['city'],
    },
  });
}

/**
 * Both tsc runs start together once the app is installed (each takes seconds); the tests await
 * their outcome, and the runs need the node16 one's emitted JavaScript.
 */
function startTypeChecks(): void {
  typeChecks = {
    bundler: consumer.tsc('tsconfig.json'),
    node16: consumer.tsc('tsconfig.node16.json'),
    examples: consumer.tsc('tsconfig.examples.json'),
  };
  // A failure is reported by the test that awaits it, not as an unhandled rejection meanwhile.
  for (const check of Object.values(typeChecks)) check.catch(() => undefined);
}

function gatewayEnv(key = team.key): Record<string, string> {
  return { TOOLGATE_URL: baseUrl, TOOLGATE_API_KEY: key };
}

/** The official client reads these itself, as it does in production. */
function openAIEnv(providerUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: `${providerUrl}/v1`, OPENAI_API_KEY: 'test' };
}

/** The official Anthropic client reads these itself. */
function anthropicEnv(providerUrl: string): Record<string, string> {
  return { ANTHROPIC_BASE_URL: providerUrl, ANTHROPIC_API_KEY: 'test' };
}

/**
 * Runs one README example, compiled from the installed package's types, as `node` runs an app:
 * against the local API as the README team, and a fake provider playing the model's turns.
 */
async function runExample(
  example: string,
  model?: { replies: FakeProviderReply[]; env: (url: string) => Record<string, string> },
): Promise<{ stdout: string; requests: unknown[] }> {
  await typeChecks.examples;
  const provider = model === undefined ? undefined : await startFakeProvider(model.replies);
  try {
    const { stdout } = await consumer.run(process.execPath, [`dist/examples/${example}.js`], {
      ...gatewayEnv(readmeTeam.key),
      ...(provider === undefined || model === undefined ? {} : model.env(provider.url)),
    });
    return { stdout, requests: provider?.requests.map((request) => request.json) ?? [] };
  } finally {
    await provider?.close();
  }
}

/** The README team's calls as the gateway recorded them, oldest first. */
async function readmeCalls(): Promise<Array<[string, string, string]>> {
  const calls = await api.database.prisma.call.findMany({
    where: { teamId: readmeTeam.id },
    orderBy: { createdAt: 'asc' },
  });
  return calls.map((call) => [call.toolName, call.toolVersion ?? '', call.status]);
}

const OSLO_WEATHER = JSON.stringify({ city: 'Oslo', temperature: 21 });

/** The app prints its outcome as the last line of stdout. */
function lastJsonLine(stdout: string): Record<string, unknown> {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as Record<string, unknown>;
}

/**
 * Runs on the PGlite project only. It tests the package, not the database: the build, `npm pack`
 * and `npm install` are most of its time, and the gateway path the app drives is the same on both
 * databases (sdk-tool-loop.int.test.ts runs it on each). PGlite, the embedded default, is what an
 * app developer first points the SDK at.
 */
describe.skipIf(!onPglite)(
  '@toolgate/sdk installed from its tarball',
  { timeout: TEST_TIMEOUT_MS },
  () => {
    beforeAll(async () => {
      await Promise.all([installPackedSdk(), startApi()]);
      startTypeChecks();
    }, SETUP_TIMEOUT_MS);
    afterAll(async () => {
      await Promise.all([consumer?.dispose(), packed?.dispose(), api?.close()]);
    });

    it('packs the bundles, their declarations, the toolgate bin, README and CHANGELOG, and nothing else', () => {
      // No TypeScript sources, no test support, no build script: only what `files` names.
      expect(packed.files).toEqual([
        'CHANGELOG.md',
        'README.md',
        'cli.js',
        'index.cjs',
        'index.cjs.map',
        'index.d.cts',
        'index.d.ts',
        'index.js',
        'index.js.map',
        'package.json',
      ]);
    });

    it('installs as a public package whose dependencies start at the versions the workspace tests', async () => {
      const installed = path.join(consumer.dir, 'node_modules/@toolgate');
      const manifest = JSON.parse(
        await readFile(path.join(installed, 'sdk/package.json'), 'utf8'),
      ) as {
        version: string;
        private?: boolean;
        engines: Record<string, string>;
        dependencies: Record<string, string>;
        peerDependencies: Record<string, string>;
        peerDependenciesMeta: Record<string, { optional: boolean }>;
        bin: Record<string, string>;
      };
      const workspaceSdk = JSON.parse(
        await readFile(path.join(import.meta.dirname, '../../../../libs/sdk/package.json'), 'utf8'),
      ) as { version: string };
      expect(manifest.version).toBe(workspaceSdk.version);
      expect(manifest.private).toBeUndefined();
      expect(manifest.engines).toEqual({ node: '>=20.3' });
      // A caret from the tested version: an app's installer can share one copy with its own.
      const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
      for (const [name, range] of Object.entries(ranges)) {
        expect(`${name}@${range}`).toBe(workspacePin(name).replace(/@(?=[^@]+$)/, '@^'));
      }
      // re2js matches free-text grammars; json-schema-to-typescript writes the bin's types.
      expect(Object.keys(manifest.dependencies).sort()).toEqual([
        'ajv',
        'ajv-formats',
        'json-schema-to-typescript',
        're2js',
      ]);
      expect(manifest.bin).toEqual({ toolgate: './cli.js' });
      // zod is the app's own (its schemas go into defineTool); the provider SDKs only if called.
      expect(Object.keys(manifest.peerDependencies).sort()).toEqual([
        '@anthropic-ai/sdk',
        '@google/genai',
        'openai',
        'zod',
      ]);
      expect(manifest.peerDependenciesMeta).toEqual({
        openai: { optional: true },
        '@anthropic-ai/sdk': { optional: true },
        '@google/genai': { optional: true },
      });
      // The workspace libs are inside the bundles: the install brings no other @toolgate package.
      expect(await readdir(installed)).toEqual(['sdk']);
    });

    it('runs `npx toolgate types` from the installed package against the gateway', async () => {
      const { stdout } = await consumer.run(
        'npx',
        ['toolgate', 'types', '--pin', `${weather.name}@^1`],
        {
          TOOLGATE_URL: baseUrl,
          TOOLGATE_API_KEY: team.key,
        },
      );
      expect(stdout).toContain(`${weather.name}@1.0.0`);
      const lockfile = JSON.parse(
        await readFile(path.join(consumer.dir, 'toolgate-types.lock.json'), 'utf8'),
      ) as { tools: Record<string, { version: string }> };
      expect(lockfile.tools[weather.name]?.version).toBe('1.0.0');
      expect(await readFile(path.join(consumer.dir, 'toolgate-tools.ts'), 'utf8')).toContain(
        'export interface ToolgateTools',
      );
    });

    it('type-checks an app with moduleResolution bundler (strict, skipLibCheck off)', async () => {
      await expect(typeChecks.bundler).resolves.toBeDefined();
    });

    it('type-checks an ES module and a CommonJS file with moduleResolution node16', async () => {
      await expect(typeChecks.node16).resolves.toBeDefined();
      const commonJs = await readFile(path.join(consumer.dir, 'dist/require-check.cjs'), 'utf8');
      expect(commonJs).toContain('require("@toolgate/sdk")');
    });

    it("runs the ES module app's loop with the official OpenAI client, the tool executed by the gateway", async () => {
      await typeChecks.node16;
      const provider = await startFakeProvider([
        {
          json: openAIChatCompletion({
            calls: [{ id: 'call_oslo', name: weather.name, arguments: { query: 'Oslo' } }],
          }),
        },
        { json: openAIChatCompletion({ text: 'It is 21 °C in Oslo.' }) },
      ]);
      try {
        const { stdout } = await consumer.run(process.execPath, ['dist/app.mjs'], {
          ...gatewayEnv(),
          ...openAIEnv(provider.url),
        });
        expect(lastJsonLine(stdout)).toMatchObject({
          entry: 'esm',
          tools: [weather.name],
          stopped: 'final',
          text: 'It is 21 °C in Oslo.',
          results: [{ ok: true, data: { city: 'Oslo', temperature: 21 } }],
          // The conversation grew in OpenAI's format: the model's tool call, then the result.
          messages: ['user', 'assistant', 'tool'],
        });
        // The model's second turn read the builtin handler's answer.
        const second = provider.requests[1]?.json as { messages: unknown[] };
        expect(second.messages[2]).toEqual({
          role: 'tool',
          tool_call_id: 'call_oslo',
          content: JSON.stringify({ city: 'Oslo', temperature: 21 }),
        });
      } finally {
        await provider.close();
      }
      const calls = await api.database.prisma.call.findMany({
        where: { teamId: team.id, conversationId: ESM_CONVERSATION },
      });
      expect(
        calls.map((call) => [call.provider, call.toolName, call.toolVersion, call.status]),
      ).toEqual([['openai-chat', weather.name, '1.0.0', 'succeeded']]);
      expect(calls[0]?.result).toMatchObject({ ok: true, data: { city: 'Oslo', temperature: 21 } });
    });

    it("loads the CommonJS entry with require(): a working Toolgate and the package's error classes", async () => {
      await typeChecks.node16;
      const { stdout } = await consumer.run(
        process.execPath,
        ['dist/require-check.cjs'],
        gatewayEnv(),
      );
      expect(lastJsonLine(stdout)).toEqual({
        entry: 'cjs',
        tools: [weather.name],
        wrongKeyStatus: 401,
      });
    });

    describe('the README examples, compiled against the installed package', () => {
      it('type-check with moduleResolution node16 and bundler (strict, skipLibCheck off)', async () => {
        await expect(typeChecks.examples).resolves.toBeDefined();
        await expect(typeChecks.bundler).resolves.toBeDefined();
      });

      it('quickstart: the loop runs get_weather through the gateway and prints the answer', async () => {
        const before = (await readmeCalls()).length;
        const { stdout, requests } = await runExample('quickstart', {
          env: openAIEnv,
          replies: [
            {
              json: openAIChatCompletion({
                calls: [{ id: 'call_q', name: 'get_weather', arguments: { city: 'Oslo' } }],
              }),
            },
            { json: openAIChatCompletion({ text: 'It is 21 °C in Oslo.' }) },
          ],
        });
        expect(stdout).toBe('It is 21 °C in Oslo.\n');
        expect((requests[1] as { messages: unknown[] }).messages[2]).toEqual({
          role: 'tool',
          tool_call_id: 'call_q',
          content: OSLO_WEATHER,
        });
        expect((await readmeCalls()).slice(before)).toEqual([
          ['get_weather', '1.0.0', 'succeeded'],
        ]);
      });

      it('call-a-tool: runs get_weather by name at a version range, typed by its declared types', async () => {
        const { stdout } = await runExample('call-a-tool');
        expect(stdout).toBe('get_weather@1.0.0: 21 °C in Oslo\n');
      });

      it("execute-calls: the app's own loop hands the model's calls to the gateway", async () => {
        const { stdout, requests } = await runExample('execute-calls', {
          env: anthropicEnv,
          replies: [
            {
              json: anthropicMessage({
                calls: [{ id: 'toolu_e', name: 'get_weather', arguments: { city: 'Oslo' } }],
              }),
            },
            { json: anthropicMessage({ text: 'Mild: 21 °C.' }) },
          ],
        });
        expect(stdout).toBe(`get_weather: ${OSLO_WEATHER}\nMild: 21 °C.\n`);
        expect((requests[1] as { messages: unknown[] }).messages[2]).toMatchObject({
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_e', is_error: false }],
        });
      });

      it('local-and-gateway-tools: get_order runs in the app, get_weather in the gateway', async () => {
        const before = (await readmeCalls()).length;
        const { stdout } = await runExample('local-and-gateway-tools', {
          env: anthropicEnv,
          replies: [
            {
              json: anthropicMessage({
                calls: [{ id: 'toolu_o', name: 'get_order', arguments: { orderId: 'A-17' } }],
              }),
            },
            {
              json: anthropicMessage({
                calls: [{ id: 'toolu_w', name: 'get_weather', arguments: { city: 'Oslo' } }],
              }),
            },
            { json: anthropicMessage({ text: 'A-17 has shipped to Oslo, where it is 21 °C.' }) },
          ],
        });
        expect(stdout).toBe(
          [
            'order A-17 is shipped',
            `get_weather: ${OSLO_WEATHER}`,
            'A-17 has shipped to Oslo, where it is 21 °C.',
            '',
          ].join('\n'),
        );
        // Only the registry's tool went through the gateway.
        expect((await readmeCalls()).slice(before)).toEqual([
          ['get_weather', '1.0.0', 'succeeded'],
        ]);
      });

      it('tool-search: the model finds get_weather by searching, then the gateway runs it', async () => {
        const before = (await readmeCalls()).length;
        const { stdout, requests } = await runExample('tool-search', {
          env: anthropicEnv,
          replies: [
            {
              json: anthropicMessage({
                calls: [
                  {
                    id: 'toolu_s',
                    name: SEARCH_TOOL_NAME,
                    arguments: { query: 'weather in a city' },
                  },
                ],
              }),
            },
            {
              json: anthropicMessage({
                calls: [{ id: 'toolu_w', name: 'get_weather', arguments: { city: 'Oslo' } }],
              }),
            },
            { json: anthropicMessage({ text: 'It is 21 °C in Oslo.' }) },
          ],
        });
        expect(stdout).toBe(
          [
            `search: ${SEARCH_TOOL_NAME} {"query":"weather in a city"}`,
            'gateway: get_weather {"city":"Oslo"}',
            'It is 21 °C in Oslo.',
            '',
          ].join('\n'),
        );
        // The first request offers only the search tool; the second, what it found.
        const offered = requests.map((request) =>
          (request as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name),
        );
        expect(offered).toEqual([
          [SEARCH_TOOL_NAME],
          [SEARCH_TOOL_NAME, 'get_weather'],
          [SEARCH_TOOL_NAME, 'get_weather'],
        ]);
        expect((await readmeCalls()).slice(before)).toEqual([
          ['get_weather', '1.0.0', 'succeeded'],
        ]);
      });

      it('streaming-loop: prints the tool call as it starts, the step, then the streamed answer', async () => {
        const { stdout, requests } = await runExample('streaming-loop', {
          env: openAIEnv,
          replies: [
            {
              sse: openAIChatToolCallStream([
                { id: 'call_s', name: 'get_weather', arguments: { city: 'Oslo' } },
              ]),
            },
            { sse: openAIChatTextStream('It is 21 °C in Oslo.') },
          ],
        });
        expect(stdout).toBe(
          [
            'calling get_weather...',
            'step 0: 1 result(s)',
            'It is 21 °C in Oslo.',
            '(final after 1 step(s))',
            '',
          ].join('\n'),
        );
        expect(requests.map((request) => (request as { stream?: boolean }).stream)).toEqual([
          true,
          true,
        ]);
      });

      it('durable-run: a second process given the run id goes on from the run, running nothing again', async () => {
        const before = (await readmeCalls()).length;
        const first = await runExample('durable-run', {
          env: openAIEnv,
          replies: [
            {
              json: openAIChatCompletion({
                calls: [{ id: 'call_d', name: 'get_weather', arguments: { city: 'Oslo' } }],
              }),
            },
            { json: openAIChatCompletion({ text: 'It is 21 °C in Oslo.' }) },
          ],
        });
        const [started, done] = first.stdout.trim().split('\n');
        const runId = /^run ([0-9a-f-]{36})$/.exec(started ?? '')?.[1] ?? '';
        expect(runId, first.stdout).not.toBe('');
        expect(done).toBe('1 turn(s) on the run: It is 21 °C in Oslo.');

        const second = await runExample('durable-run', {
          env: (url) => ({ ...openAIEnv(url), TOOLGATE_RUN_ID: runId }),
          replies: [{ json: openAIChatCompletion({ text: 'Still 21 °C in Oslo.' }) }],
        });
        expect(second.stdout).toBe(`run ${runId}\n1 turn(s) on the run: Still 21 °C in Oslo.\n`);
        // The restarted loop's first request holds the run's turn: the call and its result.
        expect((second.requests[0] as { messages: unknown[] }).messages.slice(1)).toEqual([
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_d',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_d', content: OSLO_WEATHER },
        ]);
        expect((await readmeCalls()).slice(before)).toEqual([
          ['get_weather', '1.0.0', 'succeeded'],
        ]);
      });
    });
  },
);
