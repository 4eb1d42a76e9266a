import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../factories/registry.factory';
import { startAuthProxy, type AuthProxy } from '../support/auth-proxy';
import {
  CONFORMANCE_FIXTURE_TOOLS,
  startConformanceFixtureServer,
  type ConformanceFixtureServer,
} from '../support/conformance-fixture-server';
import {
  listServerScenarios,
  runServerScenarios,
  type ScenarioResult,
} from '../support/mcp-conformance-suite';
import { startTestApp, type TestApp } from '../support/test-app';

// Issue 17: the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in the
// lockfile) runs its server scenarios against /mcp. The tools its scenarios call come from a
// fixture upstream imported into the catalog, so the calls go through the whole gateway.

/** What Toolgate does in one scenario; README.md lists the same table. */
type Expected =
  /** No check fails. `warnings` are the SHOULD checks it misses (ids), held exactly too. */
  | { outcome: 'pass'; warnings?: readonly string[] }
  /** Every failing check is the `-32601` answer for a capability /mcp does not offer. */
  | { outcome: 'method-not-found'; capability: 'resources' | 'prompts' | 'completions' }
  /** A baseline entry: these checks fail (id -> part of their message), for this reason. */
  | { outcome: 'known-gap'; failing: Readonly<Record<string, string>>; reason: string };

const EXPECTED: Readonly<Record<string, Expected>> = {
  'server-initialize': { outcome: 'pass' },
  ping: { outcome: 'pass' },
  'tools-list': { outcome: 'pass' },
  'tools-call-simple-text': { outcome: 'pass' },
  'tools-call-image': { outcome: 'pass' },
  'tools-call-audio': { outcome: 'pass' },
  'tools-call-embedded-resource': { outcome: 'pass' },
  'tools-call-mixed-content': { outcome: 'pass' },
  'tools-call-error': { outcome: 'pass' },
  'tools-call-with-progress': { outcome: 'pass' },
  'json-schema-2020-12': { outcome: 'pass' },
  'server-sse-multiple-streams': { outcome: 'pass' },
  // Toolgate's transport keeps no event store, so its POST streams are not resumable.
  'server-sse-polling': {
    outcome: 'pass',
    warnings: ['server-sse-priming-event', 'server-sse-retry-field'],
  },
  'dns-rebinding-protection': { outcome: 'pass' },
  // logging/setLevel sets the session's level for the upstream log messages relayed to it.
  'logging-set-level': { outcome: 'pass' },
  'tools-call-with-logging': { outcome: 'pass' },
  'completion-complete': { outcome: 'method-not-found', capability: 'completions' },
  'resources-list': { outcome: 'method-not-found', capability: 'resources' },
  'resources-read-text': { outcome: 'method-not-found', capability: 'resources' },
  'resources-read-binary': { outcome: 'method-not-found', capability: 'resources' },
  'resources-templates-read': { outcome: 'method-not-found', capability: 'resources' },
  'resources-subscribe': { outcome: 'method-not-found', capability: 'resources' },
  'resources-unsubscribe': { outcome: 'method-not-found', capability: 'resources' },
  'prompts-list': { outcome: 'method-not-found', capability: 'prompts' },
  'prompts-get-simple': { outcome: 'method-not-found', capability: 'prompts' },
  'prompts-get-with-args': { outcome: 'method-not-found', capability: 'prompts' },
  'prompts-get-embedded-resource': { outcome: 'method-not-found', capability: 'prompts' },
  'prompts-get-with-image': { outcome: 'method-not-found', capability: 'prompts' },
  // Relayed to the suite's client over its session: the fixture upstream asks, the suite answers.
  'tools-call-sampling': { outcome: 'pass' },
  'tools-call-elicitation': { outcome: 'pass' },
  'elicitation-sep1034-defaults': { outcome: 'pass' },
  'elicitation-sep1330-enums': { outcome: 'pass' },
};

const METHOD_NOT_FOUND = 'MCP error -32601';

/** The outcome as `Expected` states it, from the checks alone, so the two compare with toEqual. */
function outcomeOf(result: ScenarioResult, expected: Expected): Expected {
  const failures = result.checks.filter((check) => check.status === 'FAILURE');
  if (failures.length === 0) {
    const warnings = result.checks
      .filter((check) => check.status === 'WARNING')
      .map((check) => check.id);
    return warnings.length === 0 ? { outcome: 'pass' } : { outcome: 'pass', warnings };
  }
  if (
    expected.outcome === 'method-not-found' &&
    failures.every((check) => check.errorMessage?.includes(METHOD_NOT_FOUND))
  )
    return expected;
  const failing = Object.fromEntries(
    failures.map((check) => [check.id, check.errorMessage ?? check.description]),
  );
  if (expected.outcome !== 'known-gap') return { outcome: 'known-gap', failing, reason: '' };
  // Each expected message need only be part of the actual one: the suite adds its own detail.
  const matches =
    Object.keys(failing).sort().join() === Object.keys(expected.failing).sort().join() &&
    Object.entries(expected.failing).every(([id, part]) => failing[id]?.includes(part));
  return matches ? expected : { outcome: 'known-gap', failing, reason: expected.reason };
}

let api: TestApp;
let fixture: ConformanceFixtureServer;
let proxy: AuthProxy;
let results: ScenarioResult[];

beforeAll(async () => {
  api = await startTestApp();
  // The suite is another process: /mcp on a real port, behind the proxy that adds the key.
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const team = await createTeam(api);
  fixture = await startConformanceFixtureServer();
  const imported = await api.request({
    method: 'POST',
    url: '/v1/imports/mcp-servers',
    key: team.key,
    body: {
      name: 'conformance-fixture',
      url: fixture.url,
      publish: true,
      // No name_prefix: the scenarios call the tools by their upstream names. The fixture's tools
      // carry no annotations; these keep their calls from waiting for an approval.
      defaults: { read_only: true, destructive: false, idempotent: true, open_world: false },
    },
  });
  expect(imported.status, imported.text).toBe(201);
  expect(
    (imported.body.added as Array<{ name: string; needs_approval: boolean }>)
      .filter((tool) => !tool.needs_approval)
      .map((tool) => tool.name)
      .sort(),
  ).toEqual([...CONFORMANCE_FIXTURE_TOOLS].sort());
  const port = (api.app.getHttpServer().address() as AddressInfo).port;
  proxy = await startAuthProxy(`http://127.0.0.1:${port}`, `Bearer ${team.key}`);
  results = await runServerScenarios(`${proxy.url}/mcp`);
}, 150_000);

afterAll(async () => {
  await proxy?.[Symbol.asyncDispose]();
  await fixture?.[Symbol.asyncDispose]();
  await api?.close();
});

describe('the official MCP conformance suite against /mcp', () => {
  it('ran every server scenario of the suite, and this file expects each', async () => {
    const listed = await listServerScenarios();
    expect(listed.length).toBeGreaterThan(0);
    expect(results.map((result) => result.scenario).sort()).toEqual([...listed].sort());
    expect(Object.keys(EXPECTED).sort()).toEqual([...listed].sort());
  });

  it.each(Object.entries(EXPECTED))('%s', (scenario, expected) => {
    const result = results.find((candidate) => candidate.scenario === scenario);
    expect(result, `the suite wrote no result for ${scenario}`).toBeDefined();
    if (result === undefined) return;
    // A known gap that now passes fails here too: take it out of the baseline.
    const seen = result.checks.map(({ id, status, errorMessage }) => ({
      id,
      status,
      errorMessage,
    }));
    expect(outcomeOf(result, expected), JSON.stringify(seen, null, 2)).toEqual(expected);
  });
});
