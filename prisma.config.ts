import { defineConfig } from 'prisma/config';

// Migrations are plain SQL applied by the registry's own migrator (apps/registry-api/src/database);
// the Prisma CLI is only used to generate the client.
export default defineConfig({
  schema: 'prisma/schema.prisma',
});
