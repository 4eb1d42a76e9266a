import { describe, expect, it } from 'vitest';
import { parseToolIR } from '@toolgate/toolir';
import {
  BuiltinExecutor,
  CedarPolicyEngine,
  DEFAULT_POLICY_TEXT,
  ExecutorRegistry,
  InMemoryApprovalGate,
  InMemoryRateLimiter,
  InMemoryResultStore,
  MemoryEventSink,
  executeCall,
} from './index';
import type { ExecutionContext } from './index';

describe('README example', () => {
  it('runs a builtin tool end to end', async () => {
    // 1. A tool version, as the registry stores it.
    const weather = parseToolIR({
      schema_version: '1.0',
      id: '6f1c1a52-4f55-4d7e-9a0e-0d0f1c2b3a4d',
      name: 'get_weather',
      version: '1.0.0',
      description: 'Current weather for a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', minLength: 1 } },
        required: ['city'],
        additionalProperties: false,
      },
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 2000, max_retries: 2 },
      protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'weather' } } },
    });

    // 2. Its implementation, registered in code.
    const builtins = new BuiltinExecutor().registerBuiltin(
      'weather',
      (args, { reportProgress }) => {
        reportProgress({ progress: 1, total: 1, message: 'looked up' });
        return { city: args['city'], celsius: 21 };
      },
    );

    // 3. The context: every port injected.
    const tools = new Map([[weather.name, weather]]);
    const events = new MemoryEventSink();
    const context: ExecutionContext = {
      resolveTool: (name) => Promise.resolve(tools.get(name)),
      executors: new ExecutorRegistry({ builtin: builtins }),
      policy: new CedarPolicyEngine(DEFAULT_POLICY_TEXT),
      approvals: new InMemoryApprovalGate(),
      rateLimiter: new InMemoryRateLimiter(),
      results: new InMemoryResultStore(),
      caller: { key_id: 'key_123', team: 'support', scopes: ['tools:execute'] },
      events,
    };

    // 4. A call as the model made it.
    const outcome = await executeCall(
      { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } },
      context,
    );

    expect(outcome.status).toBe('succeeded');
    expect(outcome.result).toEqual({
      call_id: 'call_1',
      name: 'get_weather',
      ok: true,
      data: { city: 'Oslo', celsius: 21 },
    });
    expect(outcome.execution).toMatchObject({
      attempts: 1,
      answered_by: 'get_weather',
      decision: { effect: 'allow' },
    });
    expect(events.events.map((event) => event.type)).toEqual([
      'queued',
      'started',
      'progress',
      'finished',
    ]);

    const invalid = await executeCall(
      { id: 'call_2', name: 'get_weather', arguments: {} },
      context,
    );
    expect(invalid.result.error?.code).toBe('invalid_arguments');
  });
});
