/**
 * `npm start`: brings the registry API and the console up on this machine. Without DATABASE_URL it
 * runs on embedded PGlite (data in ./.toolgate/pglite) with the same migrations as Postgres, and
 * without TOOLGATE_ADMIN_KEY it creates a bootstrap admin key once, in ./.toolgate/admin-key (mode
 * 0600). Without TOOLGATE_CONSOLE_ADMIN_PASSWORD it creates the first console admin's password once,
 * in ./.toolgate/console-admin-password. On PGlite without TOOLGATE_SECRETS_KEY it creates the secret
 * store's key once, in ./.toolgate/secrets-key. With REDIS_URL (and DATABASE_URL) it also starts a worker,
 * which runs the calls the API queues on BullMQ. The API prints its own URLs when it listens; the console
 * (built once on first start) prints its URL when it answers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const stateDir = path.join(root, '.toolgate');

function ensurePrismaClient(): void {
  if (existsSync(path.join(root, 'apps/registry-api/src/generated/prisma/client.ts'))) return;
  const generated = spawnSync(
    process.execPath,
    [require.resolve('tsx/cli', { paths: [root] }), 'scripts/db-generate.ts'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (generated.status !== 0) process.exit(generated.status ?? 1);
}

function bootstrapAdminKey(): string {
  const file = path.join(stateDir, 'admin-key');
  if (!existsSync(file)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, `tgadmin_${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    process.stdout.write(
      `Created a bootstrap admin key in ${path.relative(process.cwd(), file)} (keep it secret).\n`,
    );
  }
  return readFileSync(file, 'utf8').trim();
}

/** The embedded default's secret-store key, kept beside its data; a real deployment sets TOOLGATE_SECRETS_KEY. */
function bootstrapSecretsKey(): string {
  const file = path.join(stateDir, 'secrets-key');
  if (!existsSync(file)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    process.stdout.write(
      `Created the secret store's key in ${path.relative(process.cwd(), file)} (keep it secret; secrets stored with it cannot be read without it).\n`,
    );
  }
  return readFileSync(file, 'utf8').trim();
}

function bootstrapConsolePassword(): string {
  const file = path.join(stateDir, 'console-admin-password');
  if (!existsSync(file)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, `${randomBytes(18).toString('base64url')}\n`, { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

const consoleDir = path.join(root, 'apps/console');
const nextBin = require.resolve('next/dist/bin/next', { paths: [root] });
const children: ChildProcess[] = [];

function stopAll(code: number): never {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exit(code);
}

/** Builds the console once (a fresh checkout has no .next yet), then serves it with `next start`. */
async function startConsole(apiEnv: NodeJS.ProcessEnv): Promise<void> {
  // Next prints a telemetry banner and phones home unless told not to; the bundled console is local.
  const env: NodeJS.ProcessEnv = { ...apiEnv, NEXT_TELEMETRY_DISABLED: '1' };
  if (!existsSync(path.join(consoleDir, '.next', 'BUILD_ID'))) {
    process.stdout.write('Building the console once (next build, a minute or two)...\n');
    const build = spawn(process.execPath, [nextBin, 'build'], {
      cwd: consoleDir,
      env,
      stdio: 'inherit',
    });
    children.push(build);
    const status = await new Promise<number | null>((resolve) => build.on('exit', resolve));
    if (status !== 0) {
      process.stderr.write(
        'The console build failed; the API keeps running. Fix it and run npm start again.\n',
      );
      return;
    }
  }
  const host = env['TOOLGATE_CONSOLE_HOST'] ?? '127.0.0.1';
  const port = env['TOOLGATE_CONSOLE_PORT'] ?? '3000';
  const server = spawn(process.execPath, [nextBin, 'start', '--hostname', host, '--port', port], {
    cwd: consoleDir,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(server);
  server.on('exit', (code, signal) => stopAll(code ?? (signal ? 1 : 0)));
  const url = `http://${host}:${port}`;
  const answers = (target: string) =>
    fetch(target).then(
      (response) => response.ok,
      () => false,
    );
  // PGlite's first start can take minutes; the console line goes out once both answer, under the API's.
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const up =
      (await answers(`${url}/sign-in`)) && (await answers(`${env['TOOLGATE_API_URL']}/healthz`));
    if (up) {
      const passwordNote = process.env['TOOLGATE_CONSOLE_ADMIN_PASSWORD']
        ? 'password from TOOLGATE_CONSOLE_ADMIN_PASSWORD'
        : `password in ${path.relative(process.cwd(), path.join(stateDir, 'console-admin-password'))}`;
      process.stdout.write(
        `  Console:  ${url} (sign in as ${env['TOOLGATE_CONSOLE_ADMIN_EMAIL'] ?? ''}, ${passwordNote})\n`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  process.stderr.write(
    `The console or the API did not answer within five minutes (console ${url}).\n`,
  );
}

/** With REDIS_URL the API hands calls to BullMQ: a worker beside it runs them, once the API has migrated. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<void> {
  const health = `${env['TOOLGATE_API_URL']}/healthz`;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const up = await fetch(health).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const worker = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/worker/src/main.ts')],
    { cwd: root, env, stdio: 'inherit' },
  );
  children.push(worker);
  worker.on('exit', (code, signal) => stopAll(code ?? (signal ? 1 : 0)));
}

ensurePrismaClient();
if (process.env['REDIS_URL'] && !process.env['DATABASE_URL']) {
  process.stderr.write(
    'REDIS_URL is set but DATABASE_URL is not: workers record calls in the same Postgres as the API, ' +
      'which embedded PGlite cannot share. Set DATABASE_URL too, or unset REDIS_URL to run calls in-process.\n',
  );
  process.exit(1);
}
const env: NodeJS.ProcessEnv = {
  ...process.env,
  // Nest's decorators need the API's own compiler options (experimentalDecorators).
  TSX_TSCONFIG_PATH: path.join(root, 'apps/registry-api/tsconfig.json'),
  PGLITE_DATA_DIR: process.env['PGLITE_DATA_DIR'] ?? path.join(stateDir, 'pglite'),
};
if (!env['TOOLGATE_ADMIN_KEY']) env['TOOLGATE_ADMIN_KEY'] = bootstrapAdminKey();
if (!env['TOOLGATE_CONSOLE_ADMIN_EMAIL'])
  env['TOOLGATE_CONSOLE_ADMIN_EMAIL'] = 'admin@toolgate.local';
if (!env['TOOLGATE_CONSOLE_ADMIN_PASSWORD'])
  env['TOOLGATE_CONSOLE_ADMIN_PASSWORD'] = bootstrapConsolePassword();
// The console proxies /v1 to the API it was started beside.
env['TOOLGATE_API_URL'] ??= `http://${env['HOST'] ?? '127.0.0.1'}:${env['PORT'] ?? '4000'}`;
if (!env['DATABASE_URL'])
  process.stdout.write(
    'DATABASE_URL is not set: starting on embedded PGlite (first start takes a while).\n',
  );
if (!env['TOOLGATE_SECRETS_KEY'] && !env['DATABASE_URL']) {
  env['TOOLGATE_SECRETS_KEY'] = bootstrapSecretsKey();
  process.stdout.write(
    `Secrets (POST /v1/secrets) are sealed with the key in ${path.relative(process.cwd(), path.join(stateDir, 'secrets-key'))}.\n`,
  );
} else if (!env['TOOLGATE_SECRETS_KEY'])
  process.stdout.write(
    'TOOLGATE_SECRETS_KEY is not set: the secret store is off (its routes answer 503) and tools referencing secrets fail.\n',
  );

const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/registry-api/src/main.ts')],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
children.push(child);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const running of children) if (running.exitCode === null) running.kill(signal);
  });
child.on('exit', (code, signal) => stopAll(code ?? (signal ? 1 : 0)));
void startConsole(env);
if (env['REDIS_URL']) void startWorker(env);
