import { loadConfig } from './config/app-config';
import { startServer } from './start-server';

// `tsx src/main.ts` (see scripts/start.ts) or `node dist/.../main.js`: config from the environment, then listen.
const server = await startServer(loadConfig(process.env));
const lines = [
  `Toolgate registry API is up (${server.database.kind === 'pglite' ? 'embedded PGlite' : 'Postgres'})`,
  `  API:      ${server.urls.api}`,
  `  Docs:     ${server.urls.docs}`,
  `  OpenAPI:  ${server.urls.openapi}`,
  `  MCP:      ${server.urls.mcp} (Streamable HTTP)`,
  `  Health:   ${server.urls.health}`,
  `  ${server.egress}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
