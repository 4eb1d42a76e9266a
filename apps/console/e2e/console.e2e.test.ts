import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
  apiRequest,
  buildConsoleIfStale,
  freePort,
  redisReachable,
  startStack,
  TEST_REDIS_URL,
  type Stack,
  type StackKind,
} from './stack';
import {
  CANCEL_ORDER,
  CREATE_ORDER,
  NOTE_CUSTOMER,
  OrdersUpstream,
  REFUSED_CUSTOMER,
  shopToolIr,
  shopTools,
} from './orders';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = path.join(import.meta.dirname, 'screenshots');
/** Every page at desktop and phone width, kept by CI as artifacts. */
const PAGE_SHOTS = path.resolve(import.meta.dirname, '../../../tmp/console-e2e');
const WIDTHS = [1440, 390] as const;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TOOL_NAME = 'e2e.drop_table';
/** Both stacks, one after the other (each with its own servers, browsers and screenshots). */
const KINDS: readonly StackKind[] = ['real', 'embedded'];

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  process.stdout.write(
    `console e2e skipped: ${CHROMIUM} is missing (apt-get install -y chromium).\n`,
  );
}
// In CI the real stack must run: a missing Redis fails its startStack loudly. Locally it is skipped.
const inCi = Boolean(process.env['CI']) && process.env['CI'] !== 'false';
const skipReal = hasChromium && !inCi && !(await redisReachable());
if (skipReal) {
  process.stdout.write(
    `console e2e: the real stack is skipped: no Redis answers at ${TEST_REDIS_URL} ` +
      `(start one, or set TOOLGATE_TEST_REDIS_URL; in CI this fails instead). The embedded stack still runs.\n`,
  );
}

interface Session {
  context: BrowserContext;
  page: Page;
  /** Errors the page logged or threw (network refusals the test provokes are filtered out). */
  errors: string[];
  profile: string;
}

function toolIr(
  toolId: string,
  version: string,
  executorUrl: string,
  extra: Record<string, unknown> = {},
) {
  return {
    schema_version: '1.0',
    id: toolId,
    name: TOOL_NAME,
    version,
    description: 'Drops a table. Destructive: every call waits for a person.',
    parameters: {
      type: 'object',
      properties: {
        table: { type: 'string', minLength: 1, description: 'The table to drop' },
        cascade: { type: 'boolean', description: 'Also drop what depends on it' },
        ...extra,
      },
      required: ['table'],
      additionalProperties: false,
    },
    behavior: {
      readonly: false,
      destructive: true,
      idempotent: false,
      requires_approval: 'if_destructive',
    },
    constraints: { timeout_ms: 5000 },
    protocol_meta: {
      toolgate: {
        executor: { kind: 'http', method: 'POST', url: `${executorUrl}/drop`, body: 'arguments' },
      },
    },
  };
}

/** The whole scenario against one kind of stack. */
function scenario(kind: StackKind): void {
  const screenshots = path.join(SCREENSHOTS, kind);
  let stack: Stack;
  let executor: Server;
  let executorUrl: string;
  const executed: unknown[] = [];
  const shop = new OrdersUpstream();
  const sessions: Session[] = [];

  async function openBrowser(): Promise<Session> {
    const profile = mkdtempSync(path.join(tmpdir(), 'toolgate-e2e-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium logs every refused request; only the two refusals this test provokes on purpose are
      // expected: the wrong password at sign-in and the viewer's attempt to approve.
      const provoked =
        message.text().startsWith('Failed to load resource') &&
        /\/v1\/console\/session$|\/v1\/approvals\/[^/]+\/decision$/.test(message.location().url);
      if (!provoked) errors.push(`${message.text()} (${message.location().url})`);
    });
    const session = { context, page, errors, profile };
    sessions.push(session);
    return session;
  }

  async function signIn(
    session: Session,
    user: { email: string; password: string },
  ): Promise<void> {
    const { page } = session;
    await page.goto(`${stack.consoleUrl}/sign-in`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Catalog' }).waitFor();
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
  }

  /** Leaves what each browser showed, and what the servers said, for whoever reads a failure. */
  async function reportFailure(): Promise<void> {
    for (const [index, session] of sessions.entries()) {
      await session.page
        .screenshot({ path: path.join(screenshots, `failure-${index}.png`), fullPage: true })
        .catch(() => undefined);
      process.stdout.write(
        `browser ${index} at ${session.page.url()}, errors: ${JSON.stringify(session.errors)}\n`,
      );
    }
    process.stdout.write(`stack output:\n${stack.logs().slice(-6000)}\n`);
  }

  beforeAll(async () => {
    rmSync(screenshots, { recursive: true, force: true });
    mkdirSync(screenshots, { recursive: true });
    const executorPort = await freePort();
    executor = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const parsed = JSON.parse(body || '{}') as Record<string, unknown>;
        void shop.handle(request.url ?? '', parsed, response).then((handled) => {
          if (handled) return;
          // Anything else is the drop tool's.
          executed.push(parsed);
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ dropped: true }));
        });
      });
    });
    await new Promise<void>((resolve) => executor.listen(executorPort, '127.0.0.1', resolve));
    executorUrl = `http://127.0.0.1:${executorPort}`;
    const started = Date.now();
    // Only the test's own executor is allow-listed on the real stack, as an operator would.
    stack = await startStack(kind, { egressAllow: [`127.0.0.1:${executorPort}`] });
    process.stdout.write(`e2e: the ${kind} stack answered in ${Date.now() - started} ms\n`);
  }, 600_000);

  afterAll(async () => {
    const stopping = Date.now();
    for (const session of sessions) {
      await session.context.close();
      rmSync(session.profile, { recursive: true, force: true });
    }
    await stack?.stop();
    await new Promise((resolve) => executor?.close(resolve));
    process.stdout.write(
      `e2e: the ${kind} stack stopped and cleaned up in ${Date.now() - stopping} ms\n`,
    );
  });

  it('signs in, releases a tool, approves a destructive call and finds it all in the audit trail', async () => {
    onTestFailed(reportFailure);
    // Seed what an installation has before the platform team arrives: a team, its API key, two more people.
    const team = await apiRequest<{ id: string }>(stack, {
      method: 'POST',
      path: '/v1/teams',
      body: { slug: 'payments', name: 'Payments' },
    });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const key = await apiRequest<{ key: string }>(stack, {
      method: 'POST',
      path: '/v1/api-keys',
      body: {
        name: 'checkout-prod',
        scopes: ['calls:execute', 'tools:read'],
        team_id: team.body.id,
      },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const approver = { email: 'approver@e2e.toolgate.test', password: 'approver password 1' };
    const viewer = { email: 'viewer@e2e.toolgate.test', password: 'viewer password 12' };

    const admin = await openBrowser();
    const { page } = admin;
    await page.goto(`${stack.consoleUrl}/tools`);
    await page.waitForURL(/\/sign-in/);
    await shot(page, '01-sign-in');
    await page.getByLabel('Email').fill(stack.admin.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Wrong email or password').waitFor();
    await signIn(admin, stack.admin);

    // The admin adds the other two people on the People page.
    await page.getByRole('link', { name: 'People' }).click();
    await page.getByRole('heading', { name: 'People' }).waitFor();
    for (const [person, role] of [
      [approver, 'approver'],
      [viewer, 'viewer'],
    ] as const) {
      await page.getByLabel('Email', { exact: true }).fill(person.email);
      await page.getByLabel('Name', { exact: true }).fill(`${role} person`);
      await page.getByLabel('Role', { exact: true }).selectOption(role);
      await page.getByLabel('Initial password (12+ characters)').fill(person.password);
      await page.getByRole('button', { name: 'Add person' }).click();
      await page.getByText(`Added ${person.email} as ${role}.`).waitFor();
    }
    await page.getByLabel(`Role of ${viewer.email}`).waitFor();
    await shot(page, '13-people');
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByRole('heading', { name: 'Catalog' }).waitFor();

    // Catalog: register the tool.
    await page.locator('summary', { hasText: 'Register a tool' }).click();
    await page.getByLabel('Name').fill(TOOL_NAME);
    await page.getByLabel('Description').fill('Drops a table');
    await page.getByLabel('Tags (comma-separated)').fill('database, destructive');
    await page.getByRole('button', { name: 'Register tool' }).click();
    await page.getByRole('heading', { name: TOOL_NAME }).waitFor();
    const toolId = page.url().split('/').pop()!;

    // Publish 1.0.0, then 2.0.0 with an extra optional parameter.
    for (const [version, extra] of [
      ['1.0.0', {}],
      ['2.0.0', { dry_run: { type: 'boolean', default: false } }],
    ] as const) {
      await page.locator('summary', { hasText: 'Publish a version' }).click();
      await page
        .getByLabel('ToolIR (JSON)')
        .fill(JSON.stringify(toolIr(toolId, version, executorUrl, extra), null, 2));
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page
        .getByRole('button', { name: new RegExp(`^${version.replaceAll('.', '\\.')}`) })
        .waitFor();
      await page.reload();
      await page.getByRole('heading', { name: TOOL_NAME }).waitFor();
    }
    await page.getByRole('heading', { name: 'Compare versions' }).waitFor();
    await page.getByText(/change(s)? from 1\.0\.0 to 2\.0\.0/).waitFor();
    await page.getByText('Drops a table. Destructive').first().waitFor();
    await page.getByRole('tab', { name: 'anthropic' }).click();
    await shot(page, '02-tool');

    // The first published version became stable on its own; 2.0.0 is not served yet.
    await page.locator('.page-header strong', { hasText: '1.0.0' }).waitFor();

    // Release: stable 2.0.0 and back to 1.0.0 (Set stable twice), canary 2.0.0 at 20%, then
    // deprecate 1.0.0 with 2.0.0 as successor.
    await page.getByRole('link', { name: 'Manage release' }).click();
    await page.getByRole('heading', { name: `Release of ${TOOL_NAME}` }).waitFor();
    await page.getByLabel('Version', { exact: true }).selectOption('1.0.0');
    await expect
      .poll(() => page.getByRole('button', { name: 'Set stable' }).isDisabled())
      .toBe(true);
    for (const version of ['2.0.0', '1.0.0']) {
      await page.getByLabel('Version', { exact: true }).selectOption(version);
      await page.getByRole('button', { name: 'Set stable' }).click();
      await page.getByRole('button', { name: 'Yes, set stable' }).click();
      await page.getByText(`Stable is now ${version}.`).waitFor();
      await page.locator('.page-header strong', { hasText: version }).waitFor();
    }
    await page.getByLabel('Canary version').selectOption('2.0.0');
    await page.getByLabel('Canary percentage').fill('20');
    await page.getByRole('button', { name: 'Save canary' }).click();
    await page.getByText('Canary 2.0.0 now gets 20% of callers.').first().waitFor();
    await page.locator('.page-header strong', { hasText: '2.0.0' }).waitFor();
    await page.getByLabel('Version to deprecate').selectOption('1.0.0');
    await page.getByLabel('Successor').selectOption('2.0.0');
    await page.getByRole('button', { name: 'Deprecate 1.0.0…' }).click();
    await page.getByRole('button', { name: 'Confirm deprecation of 1.0.0' }).click();
    await page
      .getByText(/Version 1\.0\.0 is deprecated/)
      .first()
      .waitFor();
    await page.getByText('Canary health (live)').waitFor();
    await shot(page, '03-release');
    const release = await apiRequest<{
      stable_version: string;
      canary_version: string;
      canary_percent: number;
    }>(stack, { path: `/v1/tools/${toolId}/release` });
    expect(release.body).toMatchObject({
      stable_version: '1.0.0',
      canary_version: '2.0.0',
      canary_percent: 20,
    });

    await page.goto(`${stack.consoleUrl}/releases`);
    await page.getByRole('link', { name: TOOL_NAME }).waitFor();
    await shot(page, '04-releases');

    // An app team's destructive call waits for a person.
    const call = await apiRequest<{ call_ids: string[]; calls: Array<{ status: string }> }>(stack, {
      method: 'POST',
      path: '/v1/calls/ir?wait_ms=0&conversation_id=conv-e2e-1',
      key: key.body.key,
      body: [{ id: 'call_e2e_1', name: TOOL_NAME, arguments: { table: 'users', cascade: true } }],
    });
    expect(call.status, JSON.stringify(call.body)).toBe(202);
    const callId = call.body.call_ids[0]!;
    expect(executed).toHaveLength(0);

    // A viewer sees the queue but cannot approve, neither in the page nor by calling the API.
    const watcher = await openBrowser();
    await signIn(watcher, viewer);
    await watcher.page.goto(`${stack.consoleUrl}/approvals`);
    await watcher.page.getByRole('heading', { name: TOOL_NAME }).waitFor();
    await watcher.page.getByText('Only approvers and admins can decide approvals.').waitFor();
    expect(await watcher.page.getByRole('button', { name: 'Approve…' }).count()).toBe(0);
    const pending = await apiRequest<{ items: Array<{ id: string; call_id: string }> }>(stack, {
      path: '/v1/approvals?status=pending',
    });
    const approvalId = pending.body.items.find((item) => item.call_id === callId)!.id;
    const refused = await watcher.page.evaluate(async (id) => {
      const session = (await (await fetch('/v1/console/session')).json()) as { csrf_token: string };
      const response = await fetch(`/v1/approvals/${id}/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify({ decision: 'approve' }),
      });
      return response.status;
    }, approvalId);
    expect(refused).toBe(403);
    await shot(watcher.page, '05-approvals-viewer');
    // A viewer reads every page; the ones that change things offer no way to.
    for (const route of [
      '/calls',
      '/runs',
      '/audit',
      '/policies',
      '/slo',
      `/tools/${toolId}/release`,
    ]) {
      await watcher.page.goto(`${stack.consoleUrl}${route}`);
      await watcher.page.locator('h1').waitFor();
      await watcher.page.waitForLoadState('networkidle');
      expect(await watcher.page.getByText('Something went wrong').count(), route).toBe(0);
    }
    expect(await watcher.page.getByRole('button', { name: 'Save canary' }).isDisabled()).toBe(true);
    expect(await watcher.page.getByRole('link', { name: 'People' }).count()).toBe(0);

    // The approver approves it in the console; the call runs once and finishes.
    const decider = await openBrowser();
    await signIn(decider, approver);
    await decider.page.goto(`${stack.consoleUrl}/approvals`);
    const card = decider.page.getByRole('article').filter({ hasText: TOOL_NAME });
    await card.getByText('conv-e2e-1').waitFor();
    await card.locator('.json-destructive').first().waitFor();
    await shot(decider.page, '06-approvals');
    await card.getByLabel('Reason').fill('Ticket OPS-42: table is obsolete');
    await card.getByRole('button', { name: 'Approve…' }).click();
    await card
      .getByRole('group', { name: 'Confirm: approve' })
      .locator('.json-destructive')
      .first()
      .waitFor();
    await card.getByRole('button', { name: 'Yes, approve and run' }).click();
    await decider.page.getByText(`Call ${callId.slice(0, 8)} approved by`).waitFor();
    await decider.page.goto(`${stack.consoleUrl}/calls/${callId}`);
    await decider.page
      .locator('.page-header .badge', { hasText: 'succeeded' })
      .waitFor({ timeout: 30_000 });
    if (kind === 'real') {
      // The worker ran it off the queue (the API logs at warn, so this line is the worker's).
      await expect
        .poll(() =>
          stack
            .logs()
            .split('\n')
            .some((line) => line.includes(callId) && line.includes('call finished')),
        )
        .toBe(true);
    }
    // Exactly one run; 2.0.0 (the canary) fills in its dry_run default, 1.0.0 has none.
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatchObject({ table: 'users', cascade: true });
    await decider.page.locator('.timeline li').first().waitFor();
    await decider.page.getByText('Loading the timeline').waitFor({ state: 'detached' });
    await shot(decider.page, '07-call');
    await decider.page.goto(`${stack.consoleUrl}/calls`);
    await decider.page.getByRole('link', { name: callId.slice(0, 8) }).waitFor();
    await shot(decider.page, '08-calls');

    // The admin finds every step, with the person who did it, in the audit trail.
    await page.goto(`${stack.consoleUrl}/audit`);
    await page.getByText(/Chain verified/).waitFor();
    const trail = await apiRequest<{
      items: Array<{ actor: string; action: string; entity_id: string }>;
    }>(stack, { path: '/v1/audit?limit=200' });
    const byAdmin = trail.body.items
      .filter((event) => event.actor === `user:${stack.admin.email}`)
      .map((event) => event.action);
    expect(byAdmin.length).toBeGreaterThanOrEqual(5);
    expect(trail.body.items.some((event) => event.actor === `user:${approver.email}`)).toBe(true);
    // Actors show by name; the recorded id is on hover.
    const list = page.locator('.audit-list');
    await list.locator(`[title="user:${approver.email}"]`).first().waitFor();
    await list.locator(`[title="user:${stack.admin.email}"]`).first().waitFor();
    await page.getByLabel('Actor').fill(`user:${approver.email}`);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => list.locator(`[title="user:${stack.admin.email}"]`).count(), { timeout: 15_000 })
      .toBe(0);
    // the filter is in the URL, so a reload keeps it
    expect(new URL(page.url()).searchParams.get('actor')).toBe(`user:${approver.email}`);
    await list.locator('summary').first().click();
    await shot(page, '09-audit');

    for (const [route, heading, name] of [
      ['/tools', 'Catalog', '10-catalog'],
      ['/policies', 'Policies', '11-policies'],
      ['/slo', 'SLO dashboard', '12-slo'],
    ] as const) {
      await page.goto(`${stack.consoleUrl}${route}`);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      await shot(page, name);
    }

    // Imports: an OpenAPI document pasted, previewed as a dry run, then imported.
    await page.goto(`${stack.consoleUrl}/imports`);
    await page.getByRole('heading', { name: 'Imports', exact: true }).waitFor();
    await page.getByLabel('Document from').selectOption('text');
    await page.getByLabel('Document (JSON or YAML)').fill(
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Shelves', version: '1.0.0' },
        servers: [{ url: executorUrl }],
        paths: {
          '/shelves/{id}': {
            get: {
              operationId: 'getShelf',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { '200': { description: 'The shelf.' } },
            },
            delete: {
              operationId: 'deleteShelf',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { '204': { description: 'Deleted.' } },
            },
          },
        },
      }),
    );
    await page.getByLabel('Tool name prefix (optional)').nth(1).fill('e2e_');
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview (nothing written yet)' });
    await preview.getByText(/of 2 tools will wait for a person's approval on every call/).waitFor();
    await preview.getByText('e2e_deleteShelf').waitFor();
    await shot(page, '13-imports-preview');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, import' }).click();
    await page.getByRole('region', { name: 'Imported' }).getByText('e2e_getShelf').waitFor();

    // Catalog filters narrow the list and say what to do when nothing matches.
    await page.goto(`${stack.consoleUrl}/tools`);
    await page.getByRole('link', { name: TOOL_NAME }).waitFor();
    await page.getByRole('link', { name: 'e2e_deleteShelf' }).waitFor();
    await page.getByLabel('Tag', { exact: true }).fill('no-such-tag');
    await page.getByText('No tools match.').waitFor();
    await page.getByLabel('Tag', { exact: true }).fill('database');
    await page.getByRole('link', { name: TOOL_NAME }).waitFor();

    for (const session of sessions) expect(session.errors, `browser console errors`).toEqual([]);
  });

  it('shows every page without a 5xx, an error box, a page error or sideways scrolling, at 1440 and 390 px', async () => {
    onTestFailed(reportFailure);
    // More of what an installation has: a draft, a call waiting for a person, a failed call.
    const tools = await apiRequest<{ items: Array<{ id: string; name: string }> }>(stack, {
      path: `/v1/tools?q=${encodeURIComponent(TOOL_NAME)}`,
    });
    const toolId = tools.body.items.find((tool) => tool.name === TOOL_NAME)!.id;
    const draft = await apiRequest(stack, {
      method: 'POST',
      path: `/v1/tools/${toolId}/versions`,
      body: { ir: toolIr(toolId, '3.0.0', executorUrl), status: 'draft' },
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const teamId = (
      await apiRequest<{ items: Array<{ id: string }> }>(stack, { path: '/v1/teams' })
    ).body.items[0]!.id;
    const keys = await apiRequest<{ key: string }>(stack, {
      method: 'POST',
      path: '/v1/api-keys',
      body: { name: 'nightly-cleanup', scopes: ['calls:execute', 'tools:read'], team_id: teamId },
    });
    expect(keys.status, JSON.stringify(keys.body)).toBe(201);
    const waiting = await apiRequest<{ call_ids: string[] }>(stack, {
      method: 'POST',
      path: '/v1/calls/ir?wait_ms=0&conversation_id=conv-e2e-2',
      key: keys.body.key,
      body: [{ id: 'call_e2e_2', name: TOOL_NAME, arguments: { table: 'orders' } }],
    });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
    const failed = await apiRequest<{ call_ids: string[] }>(stack, {
      method: 'POST',
      path: '/v1/calls/ir?wait_ms=0',
      key: keys.body.key,
      body: [{ id: 'call_e2e_3', name: TOOL_NAME, arguments: { table: '' } }],
    });
    expect(failed.status, JSON.stringify(failed.body)).toBe(202);
    const failedId = failed.body.call_ids[0]!;
    // an empty table name breaks the schema's minLength: the call fails validation, never runs
    await expect
      .poll(
        async () =>
          (await apiRequest<{ status: string }>(stack, { path: `/v1/calls/${failedId}` })).body
            .status,
        { timeout: 30_000 },
      )
      .toBe('failed');

    // A call cancelled while it waited for its approval.
    const cancelled = await apiRequest<{ call_ids: string[] }>(stack, {
      method: 'POST',
      path: '/v1/calls/ir?wait_ms=0&conversation_id=conv-e2e-3',
      key: keys.body.key,
      body: [{ id: 'call_e2e_4', name: TOOL_NAME, arguments: { table: 'invoices' } }],
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(202);
    const cancelledId = cancelled.body.call_ids[0]!;
    const cancel = await apiRequest(stack, {
      method: 'POST',
      path: `/v1/calls/${cancelledId}/cancel`,
      key: keys.body.key,
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBeLessThan(300);
    await expect
      .poll(
        async () =>
          (await apiRequest<{ status: string }>(stack, { path: `/v1/calls/${cancelledId}` })).body
            .status,
        { timeout: 30_000 },
      )
      .toBe('cancelled');

    // Two plan runs through the real API, each dropping a table and so waiting for a person: the
    // first is approved here and succeeds, the second the console cancels below.
    const startRun = async (steps: unknown[]): Promise<string> => {
      const run = await apiRequest<{ id: string }>(stack, {
        method: 'POST',
        path: '/v1/runs',
        key: keys.body.key,
        body: { mode: 'plan', metadata: { source: 'console e2e' } },
      });
      expect(run.status, JSON.stringify(run.body)).toBe(201);
      const plan = await apiRequest(stack, {
        method: 'POST',
        path: `/v1/runs/${run.body.id}/plan`,
        key: keys.body.key,
        body: { steps },
      });
      expect(plan.status, JSON.stringify(plan.body)).toBe(202);
      return run.body.id;
    };
    const runOf = async (runId: string) =>
      (
        await apiRequest<{
          status: string;
          compensations: Array<{
            steps: string[];
            cannot_be_undone: Array<{ call_id: string; tool: string }>;
          }>;
          steps: Array<{
            name: string;
            kind: string;
            status: string;
            compensates: { call_id: string } | null;
            calls: Array<{ id: string; status: string; arguments: Record<string, unknown> }>;
          }>;
        }>(stack, { path: `/v1/runs/${runId}` })
      ).body;
    const runStatus = async (runId: string) => (await runOf(runId)).status;
    const drop = (table: string) => ({ tool: TOOL_NAME, arguments: { table } });
    const approvedRun = await startRun([{ name: 'drop', calls: [drop('shelves')] }]);
    const dropRun = await startRun([
      { name: 'drop', calls: [drop('bins')] },
      { name: 'drop_archive', depends_on: ['drop'], calls: [drop('bins_archive')] },
    ]);
    // The shop's tools, then a run whose one step places three orders side by side, one refused,
    // and notes the customer: it fails with two orders and a note standing.
    for (const tool of shopTools()) {
      const created = await apiRequest<{ id: string }>(stack, {
        method: 'POST',
        path: '/v1/tools',
        body: { name: tool.name, description: tool.description, team_id: teamId },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const published = await apiRequest(stack, {
        method: 'POST',
        path: `/v1/tools/${created.body.id}/versions`,
        body: { ir: shopToolIr(tool.name, created.body.id, executorUrl) },
      });
      expect(published.status, JSON.stringify(published.body)).toBe(201);
    }
    const order = (customer: string, delayMs = 0) => ({
      tool: CREATE_ORDER,
      arguments: { customer, delay_ms: delayMs },
    });
    // globex's order is made first, acme's 300 ms later although it is the step's first call:
    // compensation undoes acme's first, as the calls finished, not as they were listed.
    const ordersRun = await startRun([
      {
        name: 'orders',
        calls: [
          order('acme', 300),
          order('globex'),
          order(REFUSED_CUSTOMER),
          { tool: NOTE_CUSTOMER, arguments: { customer: 'acme', text: 'Wants it by Friday' } },
        ],
      },
    ]);
    for (const runId of [approvedRun, dropRun])
      await expect.poll(() => runStatus(runId), { timeout: 30_000 }).toBe('awaiting_approval');
    await expect.poll(() => runStatus(ordersRun), { timeout: 30_000 }).toBe('failed');
    const orderCalls = (await runOf(ordersRun)).steps[0]!.calls;
    expect(orderCalls.map((entry) => entry.status)).toEqual([
      'succeeded',
      'succeeded',
      'failed',
      'succeeded',
    ]);
    const runCallId = (await runOf(approvedRun)).steps[0]!.calls[0]!.id;
    const runApproval = (
      await apiRequest<{ items: Array<{ id: string; call_id: string }> }>(stack, {
        path: '/v1/approvals?status=pending',
      })
    ).body.items.find((item) => item.call_id === runCallId)!;
    const approved = await apiRequest(stack, {
      method: 'POST',
      path: `/v1/approvals/${runApproval.id}/decision`,
      body: { decision: 'approve', reason: 'Run step checked' },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBeLessThan(300);
    await expect.poll(() => runStatus(approvedRun), { timeout: 30_000 }).toBe('succeeded');

    const visitor = await openBrowser();
    await signIn(visitor, stack.admin);

    // The run waiting for a person: its timeline, then Cancel, confirmed, ends it.
    await visitor.page.goto(`${stack.consoleUrl}/runs/${dropRun}`);
    const steps = visitor.page.getByRole('region', { name: 'Steps' });
    await steps
      .getByRole('listitem', { name: 'Step drop' })
      .locator('.badge', { hasText: 'awaiting approval' })
      .waitFor();
    await steps.getByRole('listitem', { name: 'Step drop' }).getByText(`${TOOL_NAME}@`).waitFor();
    await steps
      .getByRole('listitem', { name: 'Step drop_archive' })
      .getByText('after drop')
      .waitFor();
    await visitor.page.getByRole('button', { name: 'Cancel run' }).click();
    await visitor.page
      .getByText(/This cancels the run: its 1 unfinished call is cancelled/)
      .waitFor();
    await visitor.page.getByRole('button', { name: 'Yes, cancel run' }).click();
    await visitor.page.getByRole('status').filter({ hasText: 'The run was cancelled.' }).waitFor();
    await visitor.page.locator('.page-header .badge', { hasText: 'cancelled' }).waitFor();
    expect(await runStatus(dropRun)).toBe('cancelled');

    // The failed orders run: Compensate forecasts what the API will do, then does it.
    await visitor.page.goto(`${stack.consoleUrl}/runs/${ordersRun}`);
    await visitor.page.locator('.page-header .badge', { hasText: 'failed' }).waitFor();
    await visitor.page.getByRole('button', { name: 'Compensate…' }).click();
    const confirm = visitor.page.getByRole('group', { name: 'Confirm: compensate' });
    await confirm
      .getByText('This runs 2 compensating calls, latest first; 1 call cannot be undone.')
      .waitFor();
    const short = (index: number) => orderCalls[index]!.id.slice(0, 8);
    expect(await confirm.getByRole('listitem').allTextContents()).toEqual([
      `${CANCEL_ORDER} undoes ${CREATE_ORDER}@1.0.0 (step orders, call ${short(0)})`,
      `${CANCEL_ORDER} undoes ${CREATE_ORDER}@1.0.0 (step orders, call ${short(1)})`,
      `Cannot be undone: ${NOTE_CUSTOMER}@1.0.0 (step orders, call ${short(3)}) — ` +
        `${NOTE_CUSTOMER}@1.0.0 declares no compensation`,
    ]);
    await shot(visitor.page, '14-run-compensate');
    await confirm.getByRole('button', { name: 'Yes, compensate' }).click();
    await visitor.page
      .getByText('Compensation asked: 2 compensation steps added; 1 call cannot be undone.')
      .waitFor();
    for (const undo of ['undo:orders.0:1', 'undo:orders.1:1'])
      await steps
        .getByRole('listitem', { name: `Step ${undo}` })
        // the step's own badge, not its call's
        .locator('.run-step-head .badge.status-succeeded')
        .waitFor({ timeout: 30_000 });
    await visitor.page
      .locator('.page-header .badge', { hasText: 'failed' })
      .waitFor({ timeout: 15_000 });
    const compensated = await runOf(ordersRun);
    expect(compensated.status).toBe('failed');
    expect(compensated.compensations).toEqual([
      expect.objectContaining({
        steps: ['undo:orders.0:1', 'undo:orders.1:1'],
        cannot_be_undone: [
          expect.objectContaining({ call_id: orderCalls[3]!.id, tool: NOTE_CUSTOMER }),
        ],
      }),
    ]);
    const undos = compensated.steps.filter((entry) => entry.kind === 'compensation');
    expect(undos.map((entry) => [entry.compensates?.call_id, entry.calls[0]?.arguments])).toEqual([
      [orderCalls[0]!.id, { order_id: 'order-2' }],
      [orderCalls[1]!.id, { order_id: 'order-1' }],
    ]);
    // The shop saw the cancels in the reverse order of the orders.
    expect(shop.effects.filter((effect) => !effect.startsWith('note:'))).toEqual([
      'create:globex:order-1',
      'create:acme:order-2',
      'cancel:acme:order-2',
      'cancel:globex:order-1',
    ]);
    await visitor.page.goto(`${stack.consoleUrl}/runs`);
    await visitor.page.getByRole('link', { name: approvedRun.slice(0, 8) }).waitFor();
    await visitor.page.getByRole('link', { name: dropRun.slice(0, 8) }).waitFor();
    const serverErrors: string[] = [];
    visitor.page.on('response', (response) => {
      if (response.status() >= 500) serverErrors.push(`${response.status()} ${response.url()}`);
    });
    const pages: Array<[route: string, name: string]> = [
      ['/tools', 'catalog'],
      [`/tools/${toolId}`, 'tool'],
      [`/tools/${toolId}/release`, 'release'],
      ['/releases', 'releases'],
      ['/policies', 'policies'],
      ['/imports', 'imports'],
      ['/secrets', 'secrets'],
      ['/approvals', 'approvals'],
      ['/calls', 'calls'],
      [`/calls/${failedId}`, 'call-failed'],
      [`/calls/${waiting.body.call_ids[0]!}`, 'call-waiting'],
      [`/calls/${cancelledId}`, 'call-cancelled'],
      ['/runs', 'runs'],
      [`/runs/${approvedRun}`, 'run-succeeded'],
      [`/runs/${dropRun}`, 'run-cancelled'],
      [`/runs/${ordersRun}`, 'run-compensated'],
      ['/audit', 'audit'],
      ['/slo', 'slo'],
      ['/cost', 'cost'],
      ['/users', 'people'],
      ['/no-such-page', 'not-found'],
    ];
    for (const width of WIDTHS) {
      const folder = path.join(PAGE_SHOTS, kind, String(width));
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      await visitor.page.setViewportSize({ width, height: 900 });
      for (const [route, name] of pages) {
        await visitor.page.goto(`${stack.consoleUrl}${route}`);
        await visitor.page.locator('main h1').first().waitFor();
        await visitor.page.waitForLoadState('networkidle');
        await visitor.page
          .locator('.state-loading')
          .first()
          .waitFor({ state: 'detached', timeout: 15_000 })
          .catch(() => undefined);
        await visitor.page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
        expect(await visitor.page.locator('.state-error').count(), `error box on ${route}`).toBe(0);
        const overflow = await visitor.page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${route} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
      }
    }
    await visitor.page.goto(`${stack.consoleUrl}/no-such-page`);
    await visitor.page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await visitor.page.getByRole('link', { name: 'Catalog' }).first().waitFor();
    expect(serverErrors).toEqual([]);
    // the 404 itself is the one refused request this test asks for
    expect(visitor.errors.filter((error) => !error.includes('/no-such-page'))).toEqual([]);
  });
}

describe.skipIf(!hasChromium)('console end to end', () => {
  // One build for both stacks.
  beforeAll(() => {
    const building = Date.now();
    buildConsoleIfStale();
    process.stdout.write(`e2e: console build checked in ${Date.now() - building} ms\n`);
  }, 600_000);

  for (const kind of KINDS)
    describe.skipIf(kind === 'real' && skipReal)(`on the ${kind} stack`, () => scenario(kind));
});
