import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startTestApp, type TestApp } from '../support/test-app';

const README = new URL('../../../../README.md', import.meta.url);

/** The README's `sh` block under "The HTTP API": the example this test runs as written. */
function readmeApiExample(): string {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('## The HTTP API'));
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(section);
  if (block?.[1] === undefined) throw new Error('README: no sh block under "The HTTP API"');
  return block[1];
}

let api: TestApp;
let weather: Server;
let weatherUrl: string;
const asked: string[] = [];

beforeAll(async () => {
  api = await startTestApp();
  await api.app.listen(0, '127.0.0.1');
  // The third-party API the README's tool calls, as a local server.
  weather = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    asked.push(`${request.method} ${url.pathname}?${url.searchParams.toString()}`);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ city: url.searchParams.get('city'), temperature_c: 3 }));
  });
  await new Promise<void>((resolve) => weather.listen(0, '127.0.0.1', resolve));
  const address = weather.address();
  weatherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => weather?.close(resolve));
  await api?.close();
});

describe("the README's HTTP API example", () => {
  it('registers an http tool, exports it for OpenAI and runs the call, with curl as written', async () => {
    const address = api.app.getHttpServer().address();
    const toolgateUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const { stdout } = await promisify(execFile)(
      'bash',
      ['-euo', 'pipefail', '-c', readmeApiExample()],
      {
        env: {
          PATH: process.env['PATH'] ?? '',
          TOOLGATE_URL: toolgateUrl,
          TOOLGATE_KEY: ADMIN_KEY,
          WEATHER_URL: weatherUrl,
        },
      },
    );
    const [published, exported, called] = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(published).toMatchObject({ version: '1.0.0', status: 'published', served: true });
    expect(exported).toMatchObject({
      format: 'openai-chat',
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
    });
    expect(called).toMatchObject({
      results: [
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: expect.stringContaining('"temperature_c":3'),
        },
      ],
      calls: [{ status: 'succeeded', tool: 'get_weather', version: '1.0.0' }],
    });
    expect(asked).toEqual(['GET /weather?city=Oslo']);
  }, 60_000);
});
