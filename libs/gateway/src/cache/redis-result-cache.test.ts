// Two call runners, as two worker processes would be, sharing one Redis result cache: a local HTTP
// upstream counts the executions that really happened.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { ExecutorRegistry, ResultCache, createHttpExecutor } from '@toolgate/engine';
import { JobName } from '@toolgate/persistence';
import {
  TEST_CALLER,
  buildCall,
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
} from '@toolgate/persistence/testing';
import { TOOL_IR_SCHEMA_VERSION, parseToolIR, type ToolIR } from '@toolgate/toolir';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallRunner } from '../runner/call-runner';
import { createEngineContext } from '../runner/engine-context';
import { InMemoryCallRepository } from '../runner/in-memory-call.repository';
import { RedisResultCacheStore } from './redis-result-cache-store';

let upstream: Server;
let upstreamUrl: string;
let executions = 0;
let failNext = false;
const prefix = createTestPrefix();
const connections: Redis[] = [];

// Test servers keep to the port range this development machine gives the result-cache work.
const PORT_RANGE = { low: 43000, high: 43999 };

async function listenInRange(server: Server): Promise<number> {
  const size = PORT_RANGE.high - PORT_RANGE.low + 1;
  const start = Math.floor(Math.random() * size);
  for (let offset = 0; offset < size; offset += 1) {
    const port = PORT_RANGE.low + ((start + offset) % size);
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) return port;
  }
  throw new Error(`no free port in ${PORT_RANGE.low}-${PORT_RANGE.high}`);
}

beforeAll(async () => {
  upstream = createServer((_request, response) => {
    executions += 1;
    const failing = failNext;
    // Held long enough for every concurrent call to arrive while it runs.
    setTimeout(() => {
      response.writeHead(failing ? 503 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ execution: executions }));
    }, 300);
  });
  upstreamUrl = `http://127.0.0.1:${await listenInRange(upstream)}`;
});

afterAll(async () => {
  const [first] = connections;
  if (first !== undefined) await deleteKeys(first, prefix);
  await Promise.all(connections.map((connection) => closeRedis(connection)));
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

function cachedTool(): ToolIR {
  return parseToolIR({
    schema_version: TOOL_IR_SCHEMA_VERSION,
    id: randomUUID(),
    name: 'forecast',
    version: '1.0.0',
    description: 'A cached forecast.',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    behavior: { readonly: true, destructive: false, idempotent: true, requires_approval: 'never' },
    constraints: { timeout_ms: 5_000, max_retries: 0 },
    cache: { ttl_ms: 60_000, scope: 'shared' },
    protocol_meta: { toolgate: { executor: { kind: 'http', method: 'GET', url: upstreamUrl } } },
  });
}

/** A runner with its own Redis connection and result cache, as a separate process has. */
function runnerOn(calls: InMemoryCallRepository, workerId: string): CallRunner {
  const redis = connectTestRedis();
  connections.push(redis);
  const resultCache = new ResultCache(new RedisResultCacheStore({ redis, prefix }));
  const executors = new ExecutorRegistry({ http: createHttpExecutor() });
  return new CallRunner({
    calls,
    createContext: (scope) => createEngineContext({ executors, resultCache }, scope),
    workerId,
  });
}

async function runConcurrently(
  count: number,
): Promise<{ calls: InMemoryCallRepository; ids: string[] }> {
  const tool = cachedTool();
  const calls = new InMemoryCallRepository();
  const runners = [runnerOn(calls, 'worker-a'), runnerOn(calls, 'worker-b')] as const;
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const call = buildCall(tool, { city: 'Oslo' });
    await calls.create({ call, tool, caller: TEST_CALLER });
    ids.push(call.id);
  }
  await Promise.all(
    ids.map((id, index) =>
      runners[index % 2 === 0 ? 0 : 1].process({
        id,
        name: JobName.ExecuteToolCall,
        data: { call_id: id },
        attempt: 1,
      }),
    ),
  );
  return { calls, ids };
}

describe('the result cache on Redis, shared by two runners', () => {
  it('runs one execution for 100 concurrent identical calls across both', async () => {
    executions = 0;
    const { calls, ids } = await runConcurrently(100);
    expect(executions).toBe(1);
    const records = await Promise.all(ids.map((id) => calls.getCall(id)));
    const answeredBy = records.map((record) => record?.outcome?.answered_by);
    expect(answeredBy.filter((by) => by === 'cache')).toHaveLength(99);
    expect(answeredBy.filter((by) => by === 'forecast')).toHaveLength(1);
    expect(records.every((record) => record?.state === 'succeeded')).toBe(true);
  });

  it('caches no failure: waiters on a failed execution run for themselves', async () => {
    executions = 0;
    failNext = true;
    try {
      const { calls, ids } = await runConcurrently(4);
      const records = await Promise.all(ids.map((id) => calls.getCall(id)));
      expect(records.every((record) => record?.state === 'failed')).toBe(true);
      expect(records.some((record) => record?.outcome?.answered_by === 'cache')).toBe(false);
      expect(executions).toBe(4);
    } finally {
      failNext = false;
    }
  });
});
