import { describe, expect, it } from 'vitest';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { callOf, createHarness, ToolBuilder } from '../__fixtures__/engine-harness';
import { InMemoryApprovalGate } from '../approval/in-memory-approval-gate';
import { ClassificationTable } from '../classification/classification-table';
import { DEFAULT_CLASSIFICATION_ROWS } from '../classification/default-classification-rows';
import { ToolExecutionError } from '../executors/executor';
import { CedarPolicyEngine } from '../policy/cedar-policy-engine';
import { InMemoryRateLimiter } from '../rate-limit/in-memory-rate-limiter';
import { InMemoryResultStore } from '../truncate/result-store';
import { InMemoryResultCacheStore } from '../cache/in-memory-result-cache-store';
import { ResultCache } from '../cache/result-cache';
import { executeCall } from './execute-call';
import { toToolResultIR } from './execution-result';

const countSchema = {
  type: 'object',
  properties: { count: { type: 'integer', maximum: 10 }, query: { type: 'string' } },
  required: ['query'],
  additionalProperties: false,
};

describe('executeCall: validation', () => {
  it('turns invalid arguments into invalid_arguments with messages the model can act on, without running the tool', async () => {
    const tool = ToolBuilder.from({ name: 'search' })
      .parameters(countSchema)
      .builtin('search')
      .build();
    const { context, builtins } = createHarness({ tools: [tool] });
    let ran = false;
    builtins.registerBuiltin('search', () => {
      ran = true;
      return [];
    });
    const outcome = await executeCall(callOf('search', { count: 50 }), context);
    expect(ran).toBe(false);
    expect(outcome.status).toBe('failed');
    expect(outcome.result.error?.code).toBe('invalid_arguments');
    expect(outcome.result.error?.retryable).toBe(false);
    expect(outcome.result.error?.message).toContain('query');
    expect(outcome.result.error?.message).toContain('10');
    expect(outcome.execution.error_layer).toBe('schema');
    expect(outcome.execution.attempts).toBe(0);
  });

  it('passes defaults-applied arguments to the executor and returns data', async () => {
    const tool = ToolBuilder.from({ name: 'echo' })
      .parameters({ type: 'object', properties: { n: { type: 'integer', default: 3 } } })
      .builtin('echo')
      .build();
    const { context, builtins } = createHarness({ tools: [tool] });
    builtins.registerBuiltin('echo', (args) => ({ got: args }));
    const outcome = await executeCall(callOf('echo', {}), context);
    expect(outcome.status).toBe('succeeded');
    expect(outcome.result).toMatchObject({ ok: true, data: { got: { n: 3 } } });
    expect(outcome.execution).toMatchObject({ attempts: 1, answered_by: 'echo' });
    expect(toToolResultIR(outcome).ok).toBe(true);
  });

  it('reports an unknown tool', async () => {
    const { context } = createHarness({ tools: [] });
    const outcome = await executeCall(callOf('nope'), context);
    expect(outcome.result.error).toMatchObject({ code: 'unknown_tool', retryable: false });
  });
});

describe('executeCall: policy and approvals', () => {
  const deletes = ToolBuilder.from({ name: 'delete_file' })
    .behavior({
      readonly: false,
      destructive: true,
      idempotent: false,
      requires_approval: 'if_destructive',
    })
    .parameters({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] })
    .builtin('delete')
    .build();

  it('puts the policy deny reason in the result', async () => {
    const tool = ToolBuilder.from({ name: 'transfer' }).builtin('transfer').build();
    const { context, builtins } = createHarness({ tools: [tool] });
    builtins.registerBuiltin('transfer', () => 'done');
    context.policy = new CedarPolicyEngine(`
      permit(principal, action, resource);
      @id("no-big-transfers") @reason("Transfers above 1000 need a manager.")
      forbid(principal, action, resource) when { context.arguments has amount && context.arguments.amount > 1000 };
    `);
    const denied = await executeCall(callOf('transfer', { amount: 5000 }), context);
    expect(denied.result.error).toMatchObject({
      code: 'policy_denied',
      message: 'Transfers above 1000 need a manager.',
    });
    expect(denied.execution.decision).toMatchObject({
      effect: 'deny',
      matched_rule: 'no-big-transfers',
    });
    const allowed = await executeCall(callOf('transfer', { amount: 5 }), context);
    expect(allowed.result).toMatchObject({ ok: true, data: 'done' });
  });

  it('never runs a destructive tool without an approval, runs it once when approved, and not for other arguments', async () => {
    const { context, builtins, clock, events } = createHarness({ tools: [deletes] });
    const gate = new InMemoryApprovalGate({ clock });
    context.approvals = gate;
    const runs: unknown[] = [];
    builtins.registerBuiltin('delete', (args) => {
      runs.push(args);
      return { deleted: args['path'] };
    });
    const call = callOf('delete_file', { path: '/a' }, 'call-1');

    const pending = await executeCall(call, context);
    expect(pending.status).toBe('awaiting_approval');
    expect(pending.result.error?.code).toBe('approval_required');
    expect(runs).toEqual([]);
    expect(events.events.map((event) => event.type)).toContain('awaiting_approval');
    const approvalId = pending.execution.approval?.approval_id ?? '';

    // The same call asking again while pending stays pending.
    expect((await executeCall(call, context)).status).toBe('awaiting_approval');

    gate.approve(approvalId, { by: 'alice' });
    // Approved for /a, but the call now carries /b: it does not run.
    const other = await executeCall({ ...call, arguments: { path: '/b' } }, context);
    expect(other.status).toBe('awaiting_approval');
    expect(runs).toEqual([]);

    const approved = await executeCall(call, context);
    expect(approved.status).toBe('succeeded');
    expect(approved.execution.approval).toMatchObject({
      approval_id: approvalId,
      status: 'approved',
    });
    expect(runs).toEqual([{ path: '/a' }]);

    // The approval was used: running the same call again needs a new one.
    const again = await executeCall(call, context);
    expect(again.status).toBe('awaiting_approval');
    expect(again.execution.approval?.approval_id).not.toBe(approvalId);
    expect(runs).toHaveLength(1);
  });

  it('reports denied and expired approvals', async () => {
    const { context, builtins, clock } = createHarness({ tools: [deletes] });
    const gate = new InMemoryApprovalGate({ clock, ttlMs: 1000 });
    context.approvals = gate;
    builtins.registerBuiltin('delete', () => 'gone');
    const first = await executeCall(callOf('delete_file', { path: '/a' }, 'c1'), context);
    gate.deny(first.execution.approval?.approval_id ?? '', { by: 'bob', note: 'not today' });
    const denied = await executeCall(callOf('delete_file', { path: '/a' }, 'c1'), context);
    expect(denied.result.error).toMatchObject({
      code: 'approval_denied',
      message: 'A person denied this call: not today',
    });

    await executeCall(callOf('delete_file', { path: '/a' }, 'c2'), context);
    clock.time += 5000;
    const expired = await executeCall(callOf('delete_file', { path: '/a' }, 'c2'), context);
    expect(expired.result.error?.code).toBe('approval_expired');
  });

  it('fails closed when approval is needed and no gate is configured', async () => {
    const { context, builtins } = createHarness({ tools: [deletes] });
    let ran = false;
    builtins.registerBuiltin('delete', () => {
      ran = true;
    });
    const outcome = await executeCall(callOf('delete_file', { path: '/a' }), context);
    expect(outcome.result.error?.code).toBe('approval_denied');
    expect(ran).toBe(false);
  });

  it('holds a call the policy marks @approval("required")', async () => {
    const tool = ToolBuilder.from({ name: 'email' })
      .with({ tags: ['external'] })
      .builtin('email')
      .build();
    const { context, builtins, clock } = createHarness({ tools: [tool] });
    builtins.registerBuiltin('email', () => 'sent');
    context.approvals = new InMemoryApprovalGate({ clock });
    context.policy = new CedarPolicyEngine(`
      @id("approve-external") @approval("required") @reason("External messages are reviewed.")
      permit(principal, action, resource) when { resource.tags.contains("external") };
    `);
    const outcome = await executeCall(callOf('email', { to: 'x@example.com' }), context);
    expect(outcome.status).toBe('awaiting_approval');
    expect(outcome.execution.decision).toMatchObject({
      effect: 'require_approval',
      matched_rule: 'approve-external',
    });
    expect(outcome.execution.approval?.reason).toBe('policy');
  });
});

describe('executeCall: retries', () => {
  function flaky(input: {
    failures: number;
    failure: ConstructorParameters<typeof ToolExecutionError>[0];
  }) {
    let calls = 0;
    return {
      handler: () => {
        calls += 1;
        if (calls <= input.failures) throw new ToolExecutionError(input.failure);
        return { calls };
      },
      calls: () => calls,
    };
  }

  it('does not retry a non-idempotent tool that failed with 503', async () => {
    const tool = ToolBuilder.from({ name: 'charge' })
      .behavior({ readonly: false, idempotent: false })
      .constraints({ max_retries: 3 })
      .builtin('charge')
      .build();
    const { context, builtins, clock } = createHarness({ tools: [tool] });
    const upstream = flaky({ failures: 1, failure: { http_status: 503, message: 'unavailable' } });
    builtins.registerBuiltin('charge', upstream.handler);
    const outcome = await executeCall(callOf('charge'), context);
    expect(upstream.calls()).toBe(1);
    expect(clock.sleeps).toEqual([]);
    expect(outcome.result.error).toMatchObject({
      code: 'upstream_error',
      retryable: true,
      message: 'The tool failed temporarily.',
    });
    expect(outcome.execution.attempts).toBe(1);
  });

  it('retries an idempotent tool with exponential backoff and full jitter, then succeeds', async () => {
    const tool = ToolBuilder.from({ name: 'lookup' })
      .constraints({ max_retries: 3 })
      .builtin('lookup')
      .build();
    const { context, builtins, clock, events } = createHarness({
      tools: [tool],
      random: () => 0.5,
    });
    context.retry = { baseDelayMs: 100, maxDelayMs: 10_000 };
    const upstream = flaky({ failures: 2, failure: { http_status: 503, message: 'unavailable' } });
    builtins.registerBuiltin('lookup', upstream.handler);
    const outcome = await executeCall(callOf('lookup'), context);
    expect(outcome.result).toMatchObject({ ok: true, data: { calls: 3 } });
    expect(outcome.execution.attempts).toBe(3);
    // random 0.5 of caps 100 and 200.
    expect(clock.sleeps).toEqual([50, 100]);
    expect(events.events.filter((event) => event.type === 'retry')).toHaveLength(2);
  });

  it('keeps full jitter within the exponential cap', async () => {
    const tool = ToolBuilder.from({ name: 'lookup' })
      .constraints({ max_retries: 6 })
      .builtin('lookup')
      .build();
    const { context, builtins, clock } = createHarness({ tools: [tool], random: () => 0.999999 });
    context.retry = { baseDelayMs: 100, maxDelayMs: 1000 };
    builtins.registerBuiltin('lookup', () => {
      throw new ToolExecutionError({ network_code: 'ECONNRESET', message: 'reset' });
    });
    const outcome = await executeCall(callOf('lookup'), context);
    expect(outcome.execution.attempts).toBe(7);
    const caps = [100, 200, 400, 800, 1000, 1000];
    expect(clock.sleeps).toHaveLength(6);
    clock.sleeps.forEach((delay, index) => {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(caps[index]!);
      expect(delay).toBeGreaterThanOrEqual(Math.floor(caps[index]! * 0.99));
    });
  });

  it('honors Retry-After on 429, and fails over instead of waiting when it is too long', async () => {
    const tool = ToolBuilder.from({ name: 'quota' })
      .constraints({ max_retries: 2 })
      .builtin('quota')
      .build();
    const { context, builtins, clock } = createHarness({ tools: [tool] });
    const upstream = flaky({
      failures: 1,
      failure: { http_status: 429, retry_after_ms: 7000, message: 'slow down' },
    });
    builtins.registerBuiltin('quota', upstream.handler);
    const outcome = await executeCall(callOf('quota'), context);
    expect(outcome.result.ok).toBe(true);
    expect(clock.sleeps).toEqual([7000]);

    const patient = createHarness({ tools: [tool] });
    patient.context.retry = { maxRetryAfterMs: 5000 };
    patient.builtins.registerBuiltin('quota', () => {
      throw new ToolExecutionError({
        http_status: 429,
        retry_after_ms: 7000,
        message: 'slow down',
      });
    });
    const refused = await executeCall(callOf('quota'), patient.context);
    expect(refused.result.error?.code).toBe('rate_limited');
    expect(patient.clock.sleeps).toEqual([]);
  });

  it('does not retry a tool error the model must fix', async () => {
    const tool = ToolBuilder.from({ name: 'lookup' })
      .constraints({ max_retries: 3 })
      .builtin('lookup')
      .build();
    const { context, builtins } = createHarness({ tools: [tool] });
    builtins.registerBuiltin('lookup', () => {
      throw new Error('no such customer: 42');
    });
    const outcome = await executeCall(callOf('lookup'), context);
    expect(outcome.execution.attempts).toBe(1);
    expect(outcome.result.error).toMatchObject({
      code: 'tool_error',
      message: 'no such customer: 42',
      retryable: false,
    });
  });
});

describe('executeCall: timeout, fallback, cancellation', () => {
  it('aborts the executor when timeout_ms runs out', async () => {
    const tool = ToolBuilder.from({ name: 'slow' })
      .constraints({ timeout_ms: 30 })
      .builtin('slow')
      .build();
    const { context, builtins } = createHarness({ tools: [tool] });
    let aborted = false;
    builtins.registerBuiltin(
      'slow',
      (_args, { signal }) =>
        new Promise((resolve) => {
          const timer = setTimeout(resolve, 5000);
          signal.addEventListener('abort', () => {
            aborted = true;
            clearTimeout(timer);
          });
        }),
    );
    const outcome = await executeCall(callOf('slow'), context);
    expect(aborted).toBe(true);
    expect(outcome.result.error).toMatchObject({ code: 'timeout', retryable: true });
  });

  it('answers from a fallback when retries are exhausted and says which tool answered', async () => {
    const primary = ToolBuilder.from({ name: 'weather_primary', fallback: ['weather_backup'] })
      .constraints({ max_retries: 2 })
      .builtin('primary')
      .build();
    const backup = ToolBuilder.from({ name: 'weather_backup' }).builtin('backup').build();
    const { context, builtins, clock } = createHarness({ tools: [primary, backup] });
    builtins.registerBuiltin('primary', () => {
      throw new ToolExecutionError({ http_status: 502, message: 'bad gateway' });
    });
    builtins.registerBuiltin('backup', () => ({ temp: 21 }));
    const outcome = await executeCall(callOf('weather_primary', { city: 'Oslo' }), context);
    expect(outcome.status).toBe('succeeded');
    expect(outcome.result).toMatchObject({ ok: true, name: 'weather_primary', data: { temp: 21 } });
    expect(outcome.execution).toMatchObject({ answered_by: 'weather_backup', attempts: 4 });
    expect(clock.sleeps).toHaveLength(2);
  });

  it('returns the original failure when every fallback fails too, listing them', async () => {
    const primary = ToolBuilder.from({ name: 'a', fallback: ['b', 'missing'] })
      .builtin('fail')
      .build();
    const b = ToolBuilder.from({ name: 'b' }).builtin('fail').build();
    const { context, builtins } = createHarness({ tools: [primary, b] });
    builtins.registerBuiltin('fail', () => {
      throw new ToolExecutionError({ http_status: 500, message: 'boom' });
    });
    const outcome = await executeCall(callOf('a'), context);
    expect(outcome.result.error?.code).toBe('upstream_error');
    expect(outcome.execution.fallbacks).toEqual([
      { tool: 'b', outcome: 'upstream_error' },
      { tool: 'missing', outcome: 'unknown_tool' },
    ]);
  });

  it('does not fall back after a transient failure of a non-idempotent tool, but does when it surely did not run', async () => {
    const primary = ToolBuilder.from({ name: 'send_sms', fallback: ['send_sms_backup'] })
      .behavior({ readonly: false, idempotent: false })
      .builtin('primary')
      .build();
    const backup = ToolBuilder.from({ name: 'send_sms_backup' })
      .behavior({ readonly: false, idempotent: false })
      .builtin('backup')
      .build();
    const { context, builtins } = createHarness({ tools: [primary, backup] });
    let status = 503;
    builtins.registerBuiltin('primary', () => {
      throw new ToolExecutionError({ http_status: status, message: 'no' });
    });
    builtins.registerBuiltin('backup', () => 'sent');
    const transient = await executeCall(callOf('send_sms'), context);
    expect(transient.result.error?.code).toBe('upstream_error');
    expect(transient.execution.fallbacks).toBeUndefined();
    status = 501;
    const notImplemented = await executeCall(callOf('send_sms'), context);
    expect(notImplemented.execution.answered_by).toBe('send_sms_backup');
  });

  it('stops when the caller cancels', async () => {
    const tool = ToolBuilder.from({ name: 'slow' })
      .constraints({ timeout_ms: 10_000 })
      .builtin('slow')
      .build();
    const { context, builtins } = createHarness({ tools: [tool] });
    const controller = new AbortController();
    context.signal = controller.signal;
    builtins.registerBuiltin(
      'slow',
      (_args, { signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('stopped'))),
        ),
    );
    setTimeout(() => controller.abort(), 10);
    const outcome = await executeCall(callOf('slow'), context);
    expect(outcome.result.error?.code).toBe('cancelled');
  });
});

describe('executeCall: rate limit, truncation, classification, events, tracing', () => {
  it('returns rate_limited past the per-tool limit', async () => {
    const tool = ToolBuilder.from({ name: 'limited' })
      .constraints({ rate_limit: { rpm: 2 } })
      .builtin('ok')
      .build();
    const { context, builtins, clock } = createHarness({ tools: [tool] });
    context.rateLimiter = new InMemoryRateLimiter({ clock });
    builtins.registerBuiltin('ok', () => 'ok');
    expect((await executeCall(callOf('limited'), context)).result.ok).toBe(true);
    expect((await executeCall(callOf('limited'), context)).result.ok).toBe(true);
    const third = await executeCall(callOf('limited'), context);
    expect(third.result.error).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      details: { retry_after_ms: 60_000 },
    });
    clock.time += 60_001;
    expect((await executeCall(callOf('limited'), context)).result.ok).toBe(true);
  });

  it('truncates a large result structurally and keeps the full one behind a handle', async () => {
    const tool = ToolBuilder.from({ name: 'list' }).builtin('list').build();
    const { context, builtins } = createHarness({ tools: [tool] });
    const store = new InMemoryResultStore();
    context.results = store;
    context.maxResultBytes = 2000;
    const full = {
      total: 500,
      items: Array.from({ length: 500 }, (_, index) => ({ id: index, note: 'x'.repeat(100) })),
    };
    builtins.registerBuiltin('list', () => full);
    const outcome = await executeCall(callOf('list'), context);
    expect(outcome.result.truncated).toBe(true);
    const data = outcome.result.data as typeof full;
    expect(data.total).toBe(500);
    expect(Array.isArray(data.items)).toBe(true);
    expect(data.items.length).toBeLessThan(500);
    expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThanOrEqual(2000);
    const truncation = outcome.execution.truncation!;
    expect(truncation.cuts).toContainEqual({
      path: '/data/items',
      kind: 'array',
      original_length: 500,
      kept: data.items.length,
    });
    expect(await store.get(truncation.handle!)).toMatchObject({ ok: true, data: full });
  });

  it('changes behaviour when the classification table is reloaded, without a restart', async () => {
    const tool = ToolBuilder.from({ name: 'lookup' })
      .constraints({ max_retries: 2 })
      .builtin('lookup')
      .build();
    const { context, builtins, clock } = createHarness({ tools: [tool] });
    const table = new ClassificationTable(DEFAULT_CLASSIFICATION_ROWS);
    context.classification = table;
    builtins.registerBuiltin('lookup', () => {
      throw new ToolExecutionError({ http_status: 418, message: 'teapot' });
    });
    const before = await executeCall(callOf('lookup'), context);
    expect(before.result.error?.code).toBe('tool_error');
    expect(before.execution.attempts).toBe(1);

    const reloaded = table.reload([
      {
        match: { http_status: 418 },
        result_code: 'upstream_error',
        layer: 'retry',
        retryable: true,
        user_visible: false,
        user_message: 'Brewing.',
      },
      ...DEFAULT_CLASSIFICATION_ROWS,
    ]);
    expect(reloaded).toEqual({ ok: true, version: 2 });
    const after = await executeCall(callOf('lookup'), context);
    expect(after.result.error).toMatchObject({
      code: 'upstream_error',
      message: 'Brewing.',
      retryable: true,
    });
    expect(after.execution.attempts).toBe(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  it('emits queued, started, progress and finished events', async () => {
    const tool = ToolBuilder.from({ name: 'report' }).builtin('report').build();
    const { context, builtins, events } = createHarness({ tools: [tool] });
    builtins.registerBuiltin('report', (_args, { reportProgress }) => {
      reportProgress({ progress: 1, total: 2, message: 'half' });
      return 'ok';
    });
    await executeCall(callOf('report', {}, 'call-9'), context);
    expect(events.events.map((event) => event.type)).toEqual([
      'queued',
      'started',
      'progress',
      'finished',
    ]);
    expect(events.events[2]).toMatchObject({
      call_id: 'call-9',
      progress: 1,
      total: 2,
      message: 'half',
    });
  });

  it('records spans per call and per attempt with the GenAI attributes', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tool = ToolBuilder.from({ name: 'lookup' })
      .constraints({ max_retries: 1 })
      .builtin('lookup')
      .build();
    const { context, builtins } = createHarness({ tools: [tool] });
    context.tracer = provider.getTracer('test');
    let calls = 0;
    builtins.registerBuiltin('lookup', () => {
      calls += 1;
      if (calls === 1) throw new ToolExecutionError({ http_status: 503, message: 'down' });
      return 'ok';
    });
    await executeCall(callOf('lookup', {}, 'call-42'), context);
    const spans = exporter
      .getFinishedSpans()
      .filter((span) => span.name.startsWith('execute_tool'));
    expect(spans).toHaveLength(3);
    for (const span of spans) {
      expect(span.name).toBe('execute_tool lookup');
      expect(span.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'lookup',
        'gen_ai.tool.call.id': 'call-42',
        'gen_ai.tool.type': 'function',
      });
    }
    const root = spans.find((span) => span.parentSpanContext === undefined)!;
    const attempts = spans.filter((span) => span !== root);
    expect(
      attempts.every((span) => span.parentSpanContext?.spanId === root.spanContext().spanId),
    ).toBe(true);
    expect(attempts.map((span) => span.attributes['error.type'])).toEqual([
      'upstream_error',
      undefined,
    ]);
    expect(root.attributes['toolgate.attempts']).toBe(2);
    expect(attempts.map((span) => span.attributes['toolgate.retry.reason'])).toEqual([
      undefined,
      'upstream_error',
    ]);
    await provider.shutdown();
  });
});

describe('executeCall: a span per step', () => {
  function tracing(): { exporter: InMemorySpanExporter; provider: BasicTracerProvider } {
    const exporter = new InMemorySpanExporter();
    return {
      exporter,
      provider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    };
  }

  it('traces resolve, validate, policy, rate limit, each attempt, the fallback that answered and truncation under the call span', async () => {
    const { exporter, provider } = tracing();
    const primary = ToolBuilder.from({ name: 'search', fallback: ['search_mirror'] })
      .parameters(countSchema)
      .builtin('down')
      .build();
    const mirror = ToolBuilder.from({ name: 'search_mirror' })
      .parameters(countSchema)
      .builtin('mirror')
      .build();
    const { context, builtins } = createHarness({ tools: [primary, mirror] });
    context.tracer = provider.getTracer('test');
    context.traceAttributes = { 'toolgate.team.id': 'team-1', 'gen_ai.conversation.id': 'conv-1' };
    context.maxResultBytes = 64;
    context.policy = new CedarPolicyEngine('@id("everyone") permit(principal, action, resource);');
    builtins.registerBuiltin('down', () => {
      throw new ToolExecutionError({ http_status: 503, message: 'down' });
    });
    builtins.registerBuiltin('mirror', () => ({ hits: 'x'.repeat(500) }));
    const outcome = await executeCall(callOf('search', { query: 'q' }, 'call-7'), context);
    expect(outcome.status).toBe('succeeded');
    const spans = exporter.getFinishedSpans();
    const root = spans.find((span) => span.parentSpanContext === undefined)!;
    const childrenOf = (parent: typeof root): string[] =>
      spans
        .filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId)
        .map((span) => span.name);
    expect(childrenOf(root)).toEqual([
      'toolgate.resolve',
      'toolgate.validate',
      'toolgate.policy',
      'toolgate.rate_limit',
      'execute_tool search',
      'toolgate.fallback',
      'toolgate.truncate',
    ]);
    const fallback = spans.find((span) => span.name === 'toolgate.fallback')!;
    expect(childrenOf(fallback)).toEqual([
      'toolgate.validate',
      'toolgate.policy',
      'toolgate.rate_limit',
      'execute_tool search_mirror',
    ]);
    expect(fallback.attributes).toMatchObject({
      'toolgate.fallback.tool': 'search_mirror',
      'toolgate.tool.version': mirror.version,
    });
    expect(spans.find((span) => span.name === 'toolgate.policy')?.attributes).toMatchObject({
      'toolgate.policy.effect': 'allow',
      'toolgate.policy.rule': 'everyone',
    });
    expect(spans.find((span) => span.name === 'toolgate.truncate')?.attributes).toMatchObject({
      'toolgate.truncated': true,
      'toolgate.truncation.kept_bytes': expect.any(Number) as number,
    });
    expect(root.attributes).toMatchObject({
      'toolgate.team.id': 'team-1',
      'gen_ai.conversation.id': 'conv-1',
      'toolgate.tool.id': primary.id,
      'toolgate.tool.version': primary.version,
      'toolgate.validation.outcome': 'ok',
      'toolgate.policy.effect': 'allow',
      'toolgate.answered_by': 'search_mirror',
      'toolgate.truncated': true,
      'toolgate.status': 'succeeded',
    });
    await provider.shutdown();
  });

  it('puts the validation outcome, error code and layer on the call span', async () => {
    const { exporter, provider } = tracing();
    const tool = ToolBuilder.from({ name: 'search' }).parameters(countSchema).builtin('s').build();
    const { context } = createHarness({ tools: [tool] });
    context.tracer = provider.getTracer('test');
    await executeCall(callOf('search', { count: 50, extra: 1 }), context);
    const root = exporter.getFinishedSpans().find((span) => span.parentSpanContext === undefined)!;
    expect(root.attributes).toMatchObject({
      'toolgate.validation.outcome': 'invalid',
      'toolgate.validation.error_count': 3,
      'toolgate.validation.paths': ['/query', '/extra', '/count'],
      'error.type': 'invalid_arguments',
      'toolgate.error.code': 'invalid_arguments',
      'toolgate.error.layer': 'schema',
    });
    await provider.shutdown();
  });

  it('traces the approval with its id and how long the call waited for it', async () => {
    const { exporter, provider } = tracing();
    const tool = ToolBuilder.from({ name: 'delete_file' })
      .behavior({
        readonly: false,
        destructive: true,
        idempotent: false,
        requires_approval: 'if_destructive',
      })
      .builtin('delete')
      .build();
    const { context, builtins, clock } = createHarness({ tools: [tool] });
    const gate = new InMemoryApprovalGate({ clock });
    context.approvals = gate;
    context.tracer = provider.getTracer('test');
    builtins.registerBuiltin('delete', () => 'deleted');
    const pending = await executeCall(callOf('delete_file', {}, 'call-1'), context);
    clock.time += 90_000;
    gate.approve(pending.execution.approval?.approval_id ?? '', { by: 'alice' });
    clock.time += 5_000;
    await executeCall(callOf('delete_file', {}, 'call-1'), context);
    const approvals = exporter
      .getFinishedSpans()
      .filter((span) => span.name === 'toolgate.approval')
      .map((span) => span.attributes);
    expect(approvals).toEqual([
      expect.objectContaining({
        'toolgate.approval.status': 'pending',
        'toolgate.approval.reason': 'destructive',
        'toolgate.approval.wait_ms': 0,
      }),
      expect.objectContaining({
        'toolgate.approval.id': pending.execution.approval?.approval_id,
        'toolgate.approval.status': 'approved',
        'toolgate.approval.wait_ms': 90_000,
      }),
    ]);
    await provider.shutdown();
  });

  it('puts the arguments, result and definition on the span only when content is opted in, sensitive fields redacted', async () => {
    const { exporter, provider } = tracing();
    const schema = {
      type: 'object',
      properties: { user: { type: 'string' }, password: { type: 'string', writeOnly: true } },
    };
    const plain = ToolBuilder.from({ name: 'login' }).parameters(schema).builtin('login').build();
    const optedIn: typeof plain = {
      ...plain,
      protocol_meta: {
        toolgate: { ...(plain.protocol_meta?.['toolgate'] as object), trace: { content: true } },
      },
    };
    for (const [tool, mode] of [
      [plain, 'all'],
      [optedIn, 'off'],
      [plain, 'per_tool'],
      [optedIn, 'per_tool'],
    ] as const) {
      const { context, builtins } = createHarness({ tools: [tool] });
      context.tracer = provider.getTracer('test');
      context.traceContent = { mode, maxBytes: 4096 };
      builtins.registerBuiltin('login', () => ({ session: 's-1' }));
      await executeCall(callOf('login', { user: 'ada', password: 'hunter2' }), context);
    }
    const roots = exporter
      .getFinishedSpans()
      .filter((span) => span.parentSpanContext === undefined)
      .map((span) => span.attributes);
    expect(roots.map((attributes) => 'gen_ai.tool.call.arguments' in attributes)).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(roots[3]).toMatchObject({
      'gen_ai.tool.call.arguments': '{"user":"ada","password":"[redacted]"}',
      'gen_ai.tool.call.result': expect.stringContaining('"session":"s-1"') as string,
      'gen_ai.tool.definitions': expect.stringContaining('"name":"login"') as string,
    });
    expect(JSON.stringify(roots)).not.toContain('hunter2');
    await provider.shutdown();
  });
});

describe('executeCall: result cache', () => {
  const cachedTool = () =>
    ToolBuilder.from({ name: 'weather' })
      .with({ cache: { ttl_ms: 60_000, scope: 'team' } })
      .builtin('weather')
      .build();

  function cachedHarness() {
    const tool = cachedTool();
    const harness = createHarness({ tools: [tool] });
    harness.context.resultCache = new ResultCache(
      new InMemoryResultCacheStore({ clock: harness.clock }),
      { clock: harness.clock },
    );
    harness.context.caller = { key_id: 'key-1', team: 'team-1', scopes: [] };
    let runs = 0;
    harness.builtins.registerBuiltin('weather', (args) => {
      runs += 1;
      return { city: args['city'], run: runs };
    });
    return { ...harness, runs: () => runs };
  }

  it('answers a repeated call from the cache, as answered_by cache with its age, without executing', async () => {
    const { context, clock, runs } = cachedHarness();
    const first = await executeCall(callOf('weather', { city: 'Oslo' }), context);
    expect(first.execution).toMatchObject({ answered_by: 'weather', cache: 'miss', attempts: 1 });
    clock.time += 1500;
    const second = await executeCall(callOf('weather', { city: 'Oslo' }), context);
    expect(runs()).toBe(1);
    expect(second.status).toBe('succeeded');
    expect(second.result).toMatchObject({ ok: true, data: { city: 'Oslo', run: 1 } });
    expect(second.execution).toMatchObject({
      answered_by: 'cache',
      cache: 'hit',
      cache_age_ms: 1500,
      attempts: 0,
    });
    const other = await executeCall(callOf('weather', { city: 'Rome' }), context);
    expect(other.execution.cache).toBe('miss');
    expect(runs()).toBe(2);
  });

  it('never lets a warm entry answer a caller the policy denies', async () => {
    const { context, runs } = cachedHarness();
    await executeCall(callOf('weather', { city: 'Oslo' }), context);
    context.policy = new CedarPolicyEngine(`
      @id("nobody") forbid(principal, action, resource);
    `);
    const denied = await executeCall(callOf('weather', { city: 'Oslo' }), context);
    expect(denied.result.error?.code).toBe('policy_denied');
    expect(denied.execution.cache).toBeUndefined();
    expect(runs()).toBe(1);
  });

  it('refreshes on request: executes, and the next call gets the fresh result', async () => {
    const { context, runs } = cachedHarness();
    await executeCall(callOf('weather', { city: 'Oslo' }), context);
    const refreshed = await executeCall(callOf('weather', { city: 'Oslo' }), {
      ...context,
      cacheMode: 'refresh',
    });
    expect(refreshed.execution).toMatchObject({ cache: 'refresh', answered_by: 'weather' });
    const next = await executeCall(callOf('weather', { city: 'Oslo' }), context);
    expect(next.result.data).toEqual({ city: 'Oslo', run: 2 });
    expect(runs()).toBe(2);
  });

  it('does not cache a failure', async () => {
    const tool = cachedTool();
    const { context, builtins } = createHarness({ tools: [tool] });
    context.resultCache = new ResultCache(new InMemoryResultCacheStore());
    let runs = 0;
    builtins.registerBuiltin('weather', () => {
      runs += 1;
      throw new ToolExecutionError({ http_status: 500, message: 'down' });
    });
    await executeCall(callOf('weather', {}), context);
    const again = await executeCall(callOf('weather', {}), context);
    expect(again.execution.cache).toBe('miss');
    expect(runs).toBe(2);
  });

  it('misses after a release change (another generation)', async () => {
    const { context, runs } = cachedHarness();
    await executeCall(callOf('weather', { city: 'Oslo' }), {
      ...context,
      cacheGeneration: () => Promise.resolve('a'),
    });
    await executeCall(callOf('weather', { city: 'Oslo' }), {
      ...context,
      cacheGeneration: () => Promise.resolve('b'),
    });
    expect(runs()).toBe(2);
  });

  it('puts a cache step on the trace, with its status and age', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const { context } = cachedHarness();
    context.tracer = provider.getTracer('test');
    await executeCall(callOf('weather', { city: 'Oslo' }), context);
    await executeCall(callOf('weather', { city: 'Oslo' }), context);
    const steps = exporter.getFinishedSpans().filter((span) => span.name === 'toolgate.cache');
    expect(steps.map((span) => span.attributes['toolgate.cache.status'])).toEqual(['miss', 'hit']);
    expect(steps[1]?.attributes).toMatchObject({
      'toolgate.cache.age_ms': 0,
      'toolgate.cache.scope': 'team',
    });
    const rateLimitSteps = exporter
      .getFinishedSpans()
      .filter((span) => span.name === 'toolgate.rate_limit');
    expect(rateLimitSteps).toHaveLength(1);
  });
});
