/**
 * `npm run db:generate`: generates the Prisma client into apps/registry-api/src/generated/prisma.
 * Generating needs no database and no schema engine; pointing PRISMA_SCHEMA_ENGINE_BINARY at any
 * existing file stops the CLI from downloading one (which fails offline). Migrations are SQL
 * files applied by the registry's own migrator, so the engine is never needed.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const prismaCli = require.resolve('prisma/build/index.js', { paths: [root] });
const result = spawnSync(
  process.execPath,
  [prismaCli, 'generate', '--config', path.join(root, 'prisma.config.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env['PRISMA_SCHEMA_ENGINE_BINARY'] ?? process.execPath,
    },
  },
);
process.exit(result.status ?? 1);
