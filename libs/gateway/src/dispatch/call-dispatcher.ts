import { BatchPlanError, planBatch, silentLogger, traceHeadersOf } from '@toolgate/engine';
import type { EngineLogger, EngineToolResult, TraceHeaders } from '@toolgate/engine';
import { ExecuteToolCallJobSchema, JobName } from '@toolgate/persistence';
import type { EnqueueJob, ExecuteToolCallJob, QueueDriver } from '@toolgate/persistence';
import type { ToolCallIR, ToolIR } from '@toolgate/toolir';

/** A recorded call to hand to the queue: the call under its row id and the tool version it resolved to. */
export interface DispatchedCall {
  call: ToolCallIR;
  tool: ToolIR | undefined;
}

/** What the dispatcher needs of the call store: ending calls that must not run. */
export interface DispatchStore {
  failQueued(
    failures: ReadonlyArray<{ callId: string; result: EngineToolResult }>,
  ): Promise<Set<string>>;
}

/**
 * Hands recorded calls to the queue, whichever driver runs it (BullMQ for the worker fleet, the
 * in-process queue for the embedded default): one `{call_id, after}` job per call, where `after`
 * lists the calls of the same turn it depends on, so independent calls run in parallel and a
 * dependent waits until its dependencies are final. A turn is one `enqueueBulk`.
 */
export class CallDispatcher {
  private readonly logger: EngineLogger;

  constructor(
    private readonly deps: { driver: QueueDriver; calls: DispatchStore; logger?: EngineLogger },
  ) {
    this.logger = deps.logger ?? silentLogger;
  }

  /** Enqueues a turn's new calls under their own ids (a call recorded twice is enqueued once). */
  async dispatchTurn(
    calls: readonly DispatchedCall[],
    options: { cache?: ExecuteToolCallJob['cache'] } = {},
  ): Promise<void> {
    if (calls.length === 0) return;
    const tools = new Map(calls.map((entry) => [entry.call.id, entry.tool]));
    let dependsOn: Map<string, string[]>;
    try {
      const plan = planBatch(
        calls.map((entry) => entry.call),
        (call) => tools.get(call.id),
      );
      dependsOn = new Map(plan.nodes.map((node) => [node.call.id, node.dependsOn]));
    } catch (error) {
      if (!(error instanceof BatchPlanError)) throw error;
      // A cycle can never run: its calls fail visibly instead of waiting for each other for ever.
      await this.deps.calls.failQueued(
        calls.map(({ call }) => ({
          callId: call.id,
          result: {
            call_id: call.id,
            name: call.name,
            ok: false,
            error: { code: 'dependency_cycle', message: error.message, retryable: false },
          },
        })),
      );
      return;
    }
    const trace = traceHeadersOf();
    await this.deps.driver.enqueueBulk(
      calls.map(({ call }) =>
        this.job(call.id, { after: dependsOn.get(call.id) ?? [], trace, cache: options.cache }),
      ),
    );
  }

  /**
   * Puts calls back on the queue after they left it (an approval decided or expired): the first
   * job of each call is kept by the queue for dedupe, so these get fresh job ids.
   */
  async requeue(callIds: readonly string[]): Promise<void> {
    if (callIds.length === 0) return;
    const suffix = Date.now().toString(36);
    const trace = traceHeadersOf();
    await this.deps.driver.enqueueBulk(
      callIds.map((id) => ({ ...this.job(id, { after: [], trace }), id: `${id}.${suffix}` })),
    );
  }

  /**
   * Enqueues calls found queued with no job (the process that recorded them stopped before it
   * enqueued): under their own ids, so a job that still exists is not doubled.
   */
  async recover(callIds: readonly string[]): Promise<void> {
    if (callIds.length === 0) return;
    this.logger.info({ calls: callIds.length }, 'enqueueing recorded calls that had no job');
    const trace = traceHeadersOf();
    await this.deps.driver.enqueueBulk(callIds.map((id) => this.job(id, { after: [], trace })));
  }

  private job(
    callId: string,
    input: { after: readonly string[]; trace: TraceHeaders; cache?: ExecuteToolCallJob['cache'] },
  ): EnqueueJob<typeof JobName.ExecuteToolCall> {
    return {
      name: JobName.ExecuteToolCall,
      id: callId,
      data: ExecuteToolCallJobSchema.parse({
        call_id: callId,
        ...(input.after.length === 0 ? {} : { after: input.after }),
        ...input.trace,
        enqueued_at: Date.now(),
        ...(input.cache === undefined ? {} : { cache: input.cache }),
      }),
    };
  }
}
