import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, createTool, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const CHROMIUM = '/usr/bin/chromium';
const inCi = Boolean(process.env['CI']) && process.env['CI'] !== 'false';
// In CI Chromium is installed by .ci/run; a developer machine without it skips with a note.
const skip = !existsSync(CHROMIUM) && !inCi;
if (skip)
  process.stdout.write(
    `api docs test skipped: ${CHROMIUM} is missing (apt-get install -y chromium).\n`,
  );

let api: TestApp;
let team: TestTeam;
let baseUrl: string;
let profile: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (skip) return;
  api = await startTestApp();
  team = await createTeam(api);
  await api.app.listen(0, '127.0.0.1');
  baseUrl = (await api.app.getUrl()).replace('[::1]', '127.0.0.1');
  profile = mkdtempSync(path.join(tmpdir(), 'toolgate-docs-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
    viewport: { width: 1440, height: 1000 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${baseUrl}/v1/docs`);
  await page.locator('.swagger-ui .information-container').waitFor();
  // Authorize once with a tg_ key, as a user pasting theirs would.
  await page.locator('button.authorize').first().click();
  const bearer = page.locator('form').filter({ has: page.locator('#auth-bearer-value') });
  await bearer.locator('#auth-bearer-value').fill(team.key);
  await bearer.locator('button[type="submit"]').click();
  await page.locator('button.btn-done').first().click();
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await api?.close();
});

/** Opens an operation, presses "Try it out", fills its parameters, executes; returns the live response. */
async function tryItOut(operationId: string, tag: string, parameters: Record<string, string>) {
  // A fresh page each time (the key persists), so every operation starts collapsed.
  await page.goto(`${baseUrl}/v1/docs`);
  await page.locator('.swagger-ui .information-container').waitFor();
  const operation = page.locator(`#operations-${tag}-${operationId}`);
  await operation.locator('.opblock-summary').click();
  await operation.locator('button.try-out__btn').click();
  for (const [name, value] of Object.entries(parameters)) {
    await operation.locator(`tr[data-param-name="${name}"] input`).fill(value);
  }
  await operation.locator('button.execute').click();
  const live = operation.locator('.live-responses-table .response');
  await live.first().waitFor();
  return {
    status: (await live.locator('.response-col_status').first().innerText()).trim(),
    body: await operation
      .locator('.live-responses-table .microlight, .live-responses-table pre')
      .first()
      .innerText(),
  };
}

describe.skipIf(skip)('the docs page in Chromium', () => {
  it('runs GET /v1/tools/{toolId} with its path parameter from "Try it out"', async () => {
    const tool = await createTool(api, team, {
      name: 'docs_lookup',
      description: 'From the docs page.',
    });
    const response = await tryItOut('getTool', 'tools', { toolId: tool.id });
    expect(response.status).toBe('200');
    expect(response.body).toContain(tool.id);
    expect(response.body).toContain('docs_lookup');
  }, 60_000);

  it('runs GET /v1/tools/search with its query parameters', async () => {
    const response = await tryItOut('searchTools', 'tools', { q: 'docs_lookup', limit: '5' });
    expect(response.status).toBe('200');
    expect(response.body).toContain('docs_lookup');
  }, 60_000);

  it('shows the problem document of an unknown tool', async () => {
    const response = await tryItOut('getTool', 'tools', {
      toolId: '00000000-0000-4000-8000-000000000000',
    });
    expect(response.status).toBe('404');
    expect(response.body).toContain('not_found');
  }, 60_000);
});
