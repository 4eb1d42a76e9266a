/**
 * `npm start`: brings the registry API up on this machine. Without DATABASE_URL it runs on
 * embedded PGlite (data in ./.toolgate/pglite) with the same migrations as Postgres, and without
 * TOOLGATE_ADMIN_KEY it creates a bootstrap admin key once, in ./.toolgate/admin-key (mode 0600).
 * The API prints its own URLs when it listens.
 */
import { spawn, spawnSync } from 'node:child_process';
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

ensurePrismaClient();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  // Nest's decorators need the API's own compiler options (experimentalDecorators).
  TSX_TSCONFIG_PATH: path.join(root, 'apps/registry-api/tsconfig.json'),
  PGLITE_DATA_DIR: process.env['PGLITE_DATA_DIR'] ?? path.join(stateDir, 'pglite'),
};
if (!env['TOOLGATE_ADMIN_KEY']) env['TOOLGATE_ADMIN_KEY'] = bootstrapAdminKey();
if (!env['DATABASE_URL'])
  process.stdout.write(
    'DATABASE_URL is not set: starting on embedded PGlite (first start takes a while).\n',
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
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
