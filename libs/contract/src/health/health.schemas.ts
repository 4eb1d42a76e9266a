import { z } from 'zod';

export const LivenessSchema = z
  .object({ status: z.literal('ok') })
  .meta({ id: 'Liveness', description: 'The process answers.' });
export type Liveness = z.infer<typeof LivenessSchema>;

export const ReadinessSchema = z
  .object({
    status: z.literal('ready'),
    database: z
      .enum(['postgres', 'pglite'])
      .meta({ description: 'The database the API runs on: Postgres, or the embedded PGlite.' }),
  })
  .meta({ id: 'Readiness', description: 'The process and its database answer.' });
export type Readiness = z.infer<typeof ReadinessSchema>;

export const ApiIndexSchema = z
  .object({
    name: z.string(),
    links: z
      .object({
        docs: z.string().meta({ description: 'The interactive API reference.' }),
        openapi: z.string().meta({ description: 'This API as an OpenAPI 3.1 document.' }),
        health: z.string().meta({ description: 'Liveness.' }),
        ready: z.string().meta({ description: 'Readiness (the database answers).' }),
        mcp: z.string().meta({ description: 'The MCP endpoint (Streamable HTTP).' }),
        tools: z.string(),
        exports: z.string(),
        calls: z.string(),
      })
      .meta({ description: 'Paths on this server (without host).' }),
  })
  .meta({ id: 'ApiIndex', description: 'Where to go from here.' });
export type ApiIndex = z.infer<typeof ApiIndexSchema>;
