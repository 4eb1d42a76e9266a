import {
  BuiltinExecutor,
  ExecutorRegistry,
  InMemoryRateLimiter,
  realSleep,
} from '@toolgate/engine';
import type { Tracer } from '@opentelemetry/api';
import type { ToolIR } from '@toolgate/toolir';
import { context as otelContext, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCall, buildTool, TEST_CALLER } from '@toolgate/persistence/testing';
import { createEngineContext } from './engine-context';
import type { CallRepository, ReceivedJob } from '@toolgate/persistence';
import { ABANDONED_RUN_ATTEMPTS, DeferJobError, JobName } from '@toolgate/persistence';
import { CallCancellation } from './call-cancellation';
import { CallRunner, OUTCOME_UNKNOWN_MESSAGE } from './call-runner';
import { InMemoryCallRepository } from './in-memory-call.repository';

function newTestProcessor(
  options: {
    calls?: CallRepository;
    workerId?: string;
    sleepMs?: number;
    cancellation?: CallCancellation;
    tracer?: Tracer;
  } = {},
) {
  const calls = options.calls ?? new InMemoryCallRepository();
  const runs: string[] = [];
  const builtins = new BuiltinExecutor().registerBuiltin(
    'count',
    async (_args, { call, signal }) => {
      runs.push(call.id);
      await realSleep(options.sleepMs ?? 0, signal);
      return { runs: runs.length };
    },
  );
  const engine = {
    executors: new ExecutorRegistry({ builtin: builtins }),
    rateLimiter: new InMemoryRateLimiter(),
    ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
  };
  const sut = new CallRunner({
    calls,
    createContext: (scope) => createEngineContext(engine, scope),
    workerId: options.workerId ?? 'worker-a',
    ...(options.cancellation === undefined ? {} : { cancellation: options.cancellation }),
    now: () => 1_000,
  });
  return { sut, calls, runs };
}

function jobFor(callId: string, attempt = 1): ReceivedJob {
  return { id: callId, name: JobName.ExecuteToolCall, data: { call_id: callId }, attempt };
}

async function seed(
  calls: InMemoryCallRepository,
  tool: ToolIR,
  args: Record<string, unknown> = {},
) {
  const call = buildCall(tool, args);
  await calls.create({ call, tool, caller: TEST_CALLER, conversation_id: 'conv_1' });
  return call;
}

/** Leaves a call `running`, as a worker that died mid-call would. */
async function abandon(calls: InMemoryCallRepository, callId: string): Promise<void> {
  await calls.markStarted(callId, {
    worker_id: 'worker-dead',
    attempt: 1,
    run_id: 'run-dead',
    started_at: 400,
  });
}

describe('CallRunner', () => {
  it('claims a queued call, runs it once and records the outcome', async () => {
    const { sut, calls, runs } = newTestProcessor();
    const tool = buildTool({ handler: 'count' });
    const call = await seed(calls as InMemoryCallRepository, tool);

    await expect(sut.process(jobFor(call.id))).resolves.toEqual({
      status: 'executed',
      call_state: 'succeeded',
      recovered: false,
      attempts: 1,
    });
    expect(runs).toEqual([call.id]);
    const record = await calls.getCall(call.id);
    expect(record).toMatchObject({
      state: 'succeeded',
      run: { worker_id: 'worker-a', attempt: 1 },
      outcome: {
        status: 'succeeded',
        attempts: 1,
        answered_by: tool.name,
        finished_at: 1_000,
        result: { ok: true, data: { runs: 1 } },
      },
    });
  });

  it('skips a duplicate delivery of a finished call', async () => {
    const { sut, calls, runs } = newTestProcessor();
    const call = await seed(calls as InMemoryCallRepository, buildTool({ handler: 'count' }));
    await sut.process(jobFor(call.id));
    await expect(sut.process(jobFor(call.id, 2))).resolves.toEqual({
      status: 'skipped',
      reason: 'already_finished',
      state: 'succeeded',
    });
    expect(runs).toHaveLength(1);
  });

  it('runs a call delivered twice at the same time once', async () => {
    const { sut, calls, runs } = newTestProcessor({ sleepMs: 20 });
    const call = await seed(calls as InMemoryCallRepository, buildTool({ handler: 'count' }));
    const results = await Promise.all([sut.process(jobFor(call.id)), sut.process(jobFor(call.id))]);
    expect(results.map((result) => result.status).sort()).toEqual(['executed', 'skipped']);
    expect(runs).toHaveLength(1);
  });

  it('records a failing tool as a failed call: an expected outcome, not a thrown error', async () => {
    const { sut, calls } = newTestProcessor();
    const call = await seed(calls as InMemoryCallRepository, buildTool({ handler: 'missing' }));
    await expect(sut.process(jobFor(call.id))).resolves.toMatchObject({
      status: 'executed',
      call_state: 'failed',
    });
    expect(await calls.getCall(call.id)).toMatchObject({
      state: 'failed',
      outcome: { result: { ok: false } },
    });
  });

  it('re-runs an idempotent call left running by a dead worker and finishes it once', async () => {
    const { sut, calls, runs } = newTestProcessor({ workerId: 'worker-b' });
    const call = await seed(
      calls as InMemoryCallRepository,
      buildTool({ handler: 'count', idempotent: true }),
    );
    await abandon(calls as InMemoryCallRepository, call.id);

    await expect(sut.process(jobFor(call.id, 2))).resolves.toMatchObject({
      status: 'executed',
      recovered: true,
    });
    expect(runs).toEqual([call.id]);
    const record = await calls.getCall(call.id);
    expect(record).toMatchObject({
      state: 'succeeded',
      run: { worker_id: 'worker-b', attempt: 2 },
    });
    // Both pickups stay in the history; the dead one counts as having reached the tool.
    expect(record?.runs).toEqual([
      {
        worker_id: 'worker-dead',
        attempt: 1,
        run_id: 'run-dead',
        started_at: 400,
        ended: { state: 'abandoned', at: 1_000, attempts: ABANDONED_RUN_ATTEMPTS },
      },
      {
        worker_id: 'worker-b',
        attempt: 2,
        run_id: expect.any(String),
        started_at: 1_000,
        ended: { state: 'succeeded', at: 1_000, attempts: 1 },
      },
    ]);
    expect(record?.outcome?.attempts).toBe(ABANDONED_RUN_ATTEMPTS + 1);
  });

  it('does not re-run a non-idempotent call left running by a dead worker: outcome_unknown', async () => {
    const { sut, calls, runs } = newTestProcessor({ workerId: 'worker-b' });
    const tool = buildTool({ handler: 'count', idempotent: false });
    const call = await seed(calls as InMemoryCallRepository, tool);
    await abandon(calls as InMemoryCallRepository, call.id);

    await expect(sut.process(jobFor(call.id, 2))).resolves.toEqual({ status: 'outcome_unknown' });
    expect(runs).toEqual([]);
    const record = await calls.getCall(call.id);
    expect(record?.runs?.map((run) => [run.worker_id, run.started_at, run.ended?.state])).toEqual([
      ['worker-dead', 400, 'abandoned'],
      ['worker-b', 1_000, 'outcome_unknown'],
    ]);
    expect(record).toMatchObject({
      state: 'outcome_unknown',
      outcome: {
        status: 'outcome_unknown',
        // This run did not run the tool; the dead one may have (it is not shown as never run).
        attempts: ABANDONED_RUN_ATTEMPTS,
        latency_ms: 600,
        result: {
          call_id: call.id,
          name: tool.name,
          ok: false,
          error: { code: 'outcome_unknown', retryable: false, message: OUTCOME_UNKNOWN_MESSAGE },
        },
      },
    });
  });

  it('drops the outcome of a run whose call was taken over meanwhile', async () => {
    const calls = new InMemoryCallRepository();
    const slow = newTestProcessor({ calls, workerId: 'worker-a', sleepMs: 50 });
    const rescuer = newTestProcessor({ calls, workerId: 'worker-b' });
    const call = await seed(calls, buildTool({ handler: 'count', idempotent: true }));

    const first = slow.sut.process(jobFor(call.id));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // worker-a lost its lock; the job went to worker-b, which takes the call over and finishes it.
    await expect(rescuer.sut.process(jobFor(call.id, 2))).resolves.toMatchObject({
      status: 'executed',
      recovered: true,
    });
    await expect(first).resolves.toEqual({ status: 'skipped', reason: 'claimed_elsewhere' });
    expect(await calls.getCall(call.id)).toMatchObject({
      state: 'succeeded',
      run: { worker_id: 'worker-b' },
    });
  });

  it('skips a job whose call does not exist, and one awaiting approval', async () => {
    const { sut, calls } = newTestProcessor();
    await expect(sut.process(jobFor('call_nope'))).resolves.toEqual({
      status: 'skipped',
      reason: 'not_found',
    });

    const tool = buildTool({ handler: 'count' });
    const call = await seed(calls as InMemoryCallRepository, tool);
    await calls.claim(call.id, { worker_id: 'w', attempt: 1, run_id: 'r', started_at: 0 });
    await calls.recordOutcome(call.id, {
      runId: 'r',
      outcome: {
        status: 'awaiting_approval',
        result: { call_id: call.id, name: tool.name, ok: false },
        attempts: 0,
        latency_ms: 1,
        answered_by: undefined,
        finished_at: 0,
      },
    });
    await expect(sut.process(jobFor(call.id))).resolves.toEqual({
      status: 'skipped',
      reason: 'not_startable',
      state: 'awaiting_approval',
    });
  });

  it('throws when the call records are unreachable, so the queue retries the job', async () => {
    const broken: CallRepository = {
      getCall: () => Promise.reject(new Error('ECONNREFUSED')),
      claim: () => Promise.reject(new Error('ECONNREFUSED')),
      takeOver: () => Promise.resolve(false),
      recordOutcome: () => Promise.resolve(false),
    };
    const { sut } = newTestProcessor({ calls: broken });
    await expect(sut.process(jobFor('call_x'))).rejects.toThrow('ECONNREFUSED');
  });

  it('defers a call until the calls it runs after are final, then runs it', async () => {
    const { sut, calls, runs } = newTestProcessor();
    const memory = calls as InMemoryCallRepository;
    const tool = buildTool({ handler: 'count' });
    const first = await seed(memory, tool);
    const second = await seed(memory, tool);
    const job = { ...jobFor(second.id), data: { call_id: second.id, after: [first.id] } };

    await expect(sut.process(job)).rejects.toBeInstanceOf(DeferJobError);
    expect(await calls.getCall(second.id)).toMatchObject({ state: 'queued' });
    await sut.process(jobFor(first.id));
    await expect(sut.process({ ...job, attempt: 2 })).resolves.toMatchObject({
      status: 'executed',
      call_state: 'succeeded',
    });
    expect(runs).toEqual([first.id, second.id]);
  });

  it('fails a dependent with dependency_failed when what it runs after did not succeed', async () => {
    const { sut, calls, runs } = newTestProcessor();
    const memory = calls as InMemoryCallRepository;
    const tool = buildTool({ handler: 'count' });
    const broken = await seed(memory, buildTool({ handler: 'missing_handler' }));
    const dependent = await seed(memory, tool);
    await sut.process(jobFor(broken.id));
    expect(await calls.getCall(broken.id)).toMatchObject({ state: 'failed' });

    await expect(
      sut.process({ ...jobFor(dependent.id), data: { call_id: dependent.id, after: [broken.id] } }),
    ).resolves.toMatchObject({ status: 'executed', call_state: 'failed', attempts: 0 });
    expect(runs).toEqual([]);
    expect(await calls.getCall(dependent.id)).toMatchObject({
      state: 'failed',
      outcome: { result: { ok: false, error: { code: 'dependency_failed' } } },
    });
  });

  it('aborts a running call when it is cancelled', async () => {
    const cancellation = new CallCancellation();
    const { sut, calls } = newTestProcessor({ sleepMs: 5_000, cancellation });
    const tool = buildTool({ handler: 'count' });
    const call = await seed(calls as InMemoryCallRepository, tool);
    const running = sut.process(jobFor(call.id));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cancellation.cancel(call.id)).toBe(true);
    await running;
    expect(await calls.getCall(call.id)).toMatchObject({
      state: 'failed',
      outcome: { result: { ok: false } },
    });
    expect(cancellation.size).toBe(0);
    expect(cancellation.cancel(call.id)).toBe(false);
  });
});

describe('CallRunner tracing', () => {
  // What the hosts install at start-up (startTracing): spans follow the async context.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  afterAll(() => {
    otelContext.disable();
    propagation.disable();
  });

  it("joins the enqueuing request's trace, records the queue wait and says who called", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const { sut, calls } = newTestProcessor({ tracer: provider.getTracer('test') });
    const tool = buildTool({ handler: 'count' });
    const call = await seed(calls as InMemoryCallRepository, tool);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const job = jobFor(call.id);
    job.data = {
      ...job.data,
      traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
      enqueued_at: 400,
    };
    await sut.process(job);
    const spans = exporter.getFinishedSpans();
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([traceId]));
    const queueWait = spans.find((span) => span.name === 'toolgate.queue_wait');
    expect(queueWait?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(queueWait?.attributes['toolgate.queue.wait_ms']).toBe(600);
    const root = spans.find(
      (span) =>
        span.name === `execute_tool ${tool.name}` &&
        span.parentSpanContext?.spanId === '00f067aa0ba902b7',
    );
    expect(root?.attributes).toMatchObject({
      'toolgate.tool.id': tool.id,
      'toolgate.tool.version': tool.version,
      'toolgate.team.id': TEST_CALLER.team,
      'toolgate.api_key.id': TEST_CALLER.key_id,
      'gen_ai.conversation.id': 'conv_1',
    });
    await provider.shutdown();
  });
});
