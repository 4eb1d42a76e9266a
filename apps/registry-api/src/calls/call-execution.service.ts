import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  BatchPlanError,
  executeBatch,
  planBatch,
  toToolResultIR,
  type EventSink,
  type ExecutionContext,
  type ExecutionResult,
} from '@toolgate/engine';
import type { ToolCallIR, ToolIR } from '@toolgate/toolir';
import { CallEventBus } from './call-event-bus';
import { CallsRepository, type CallOutcome, type CallRow } from './calls.repository';
import { GatewayRuntime } from './gateway-runtime';

// Calls of one request running at once inside one batch.
const BATCH_CONCURRENCY = 4;

function toolKey(name: string, version: string | undefined): string {
  return `${name}@${version ?? ''}`;
}

function outcomeOf(execution: ExecutionResult): CallOutcome {
  const result = toToolResultIR(execution);
  const decision = execution.execution.decision;
  return {
    status: execution.status,
    result: { ...result },
    errorCode: result.error?.code ?? null,
    attempts: execution.execution.attempts,
    answeredBy: execution.execution.answered_by ?? null,
    latencyMs: Math.round(execution.execution.latency_ms),
    decisionEffect: decision?.effect ?? null,
    decisionRule: decision?.matched_rule ?? null,
    policyRevision: decision?.policy_revision ?? null,
  };
}

/** The outcome of a call refused before it ran (a dependency cycle, an internal fault, an unreachable queue). */
export function failure(row: CallRow, error: { code: string; message: string }): CallOutcome {
  return {
    status: 'failed',
    result: {
      call_id: row.id,
      name: row.toolName,
      ok: false,
      error: { ...error, retryable: false },
    },
    errorCode: error.code,
    attempts: 0,
    answeredBy: null,
    latencyMs: 0,
    decisionEffect: null,
    decisionRule: null,
    policyRevision: null,
  };
}

/** Splits calls into groups with no dependency edges between them, so each group can be cancelled alone. */
function independentGroups(
  calls: readonly ToolCallIR[],
  toolOf: (call: ToolCallIR) => ToolIR | undefined,
): ToolCallIR[][] {
  const plan = planBatch(calls, toolOf);
  const parent = new Map(calls.map((call) => [call.id, call.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    return root;
  };
  for (const node of plan.nodes) {
    for (const dependency of node.dependsOn) parent.set(find(node.call.id), find(dependency));
  }
  const groups = new Map<string, ToolCallIR[]>();
  for (const call of calls) {
    const root = find(call.id);
    groups.set(root, [...(groups.get(root) ?? []), call]);
  }
  return [...groups.values()];
}

/**
 * Runs recorded calls through the engine in this process. A call runs only after it was claimed
 * (queued -> running), so a second dispatch of the same id (a duplicate request, a re-approval) is a no-op.
 */
@Injectable()
export class CallExecutionService implements OnApplicationShutdown {
  private readonly logger = new Logger(CallExecutionService.name);
  private readonly controllers = new Map<string, AbortController>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @Inject(CallsRepository) private readonly calls: CallsRepository,
    @Inject(GatewayRuntime) private readonly runtime: GatewayRuntime,
    @Inject(CallEventBus) private readonly bus: CallEventBus,
  ) {}

  /** Starts executing the calls and returns at once; failures are logged, never thrown at the caller. */
  start(callIds: readonly string[]): void {
    const run = this.run(callIds).catch((error: unknown) => {
      this.logger.error(`executing calls ${callIds.join(', ')} failed: ${String(error)}`);
    });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  /** Aborts a cancelled call if it runs here (with the calls of its dependency group) and emits `cancelled`. */
  cancelled(call: { id: string; tool: string }): void {
    this.controllers.get(call.id)?.abort(new Error('cancelled'));
    this.bus.emit({ type: 'cancelled', call_id: call.id, tool: call.tool, at: Date.now() });
  }

  async onApplicationShutdown(): Promise<void> {
    for (const controller of this.controllers.values())
      controller.abort(new Error('shutting down'));
    await Promise.allSettled([...this.inFlight]);
  }

  async run(callIds: readonly string[]): Promise<void> {
    const rows = await this.calls.claim(callIds);
    const owners = new Map<string, CallRow[]>();
    for (const row of rows) {
      const key = `${row.teamId}|${row.keyId ?? ''}|${row.actor}`;
      owners.set(key, [...(owners.get(key) ?? []), row]);
    }
    await Promise.all([...owners.values()].map((group) => this.runForOwner(group)));
  }

  private async runForOwner(rows: CallRow[]): Promise<void> {
    const first = rows[0];
    if (first === undefined) return;
    const tools = new Map<string, ToolIR>();
    for (const row of rows) {
      const version = await this.calls.findVersion(row.toolId, row.toolVersion);
      // Stored versions were validated as ToolIR when they were published.
      if (version !== null)
        tools.set(toolKey(row.toolName, row.toolVersion), version.ir as unknown as ToolIR);
    }
    const ports = await this.runtime.contextFor({
      teamId: first.teamId,
      keyId: first.keyId,
      actor: first.actor,
    });
    const base: ExecutionContext = {
      ...ports,
      resolveTool: (name, version) =>
        this.resolveTool({ tools, teamId: first.teamId }, name, version),
    };
    const calls: ToolCallIR[] = rows.map((row) => ({
      id: row.id,
      name: row.toolName,
      arguments: row.arguments as Record<string, unknown>,
      tool_version: row.toolVersion,
    }));
    const byId = new Map(rows.map((row) => [row.id, row]));
    let groups: ToolCallIR[][];
    try {
      groups = independentGroups(calls, (call) => tools.get(toolKey(call.name, call.tool_version)));
    } catch (error) {
      if (!(error instanceof BatchPlanError)) throw error;
      await Promise.all(
        rows.map((row) =>
          this.store(row, failure(row, { code: 'dependency_cycle', message: error.message })),
        ),
      );
      return;
    }
    await Promise.all(groups.map((group) => this.runGroup(group, { base, byId })));
  }

  private async runGroup(
    calls: ToolCallIR[],
    input: { base: ExecutionContext; byId: Map<string, CallRow> },
  ): Promise<void> {
    const controller = new AbortController();
    for (const call of calls) this.controllers.set(call.id, controller);
    // `finished` waits until the outcome is stored, so a listener that reads the call sees it.
    const events: EventSink = {
      emit: (event) => {
        if (event.type !== 'finished') this.bus.emit(event);
      },
    };
    try {
      const { results } = await executeBatch(
        calls,
        { ...input.base, events, signal: controller.signal },
        { concurrency: BATCH_CONCURRENCY },
      );
      await Promise.all(
        results.map(async (execution, index) => {
          const row = input.byId.get(calls[index]?.id ?? '');
          if (row !== undefined) await this.store(row, outcomeOf(execution));
        }),
      );
    } catch (error) {
      // executeCall never throws; this is a planning or database failure: fail the calls visibly.
      await Promise.all(
        calls.map(async (call) => {
          const row = input.byId.get(call.id);
          if (row === undefined) return;
          await this.store(
            row,
            failure(row, { code: 'internal', message: 'The call could not be executed.' }),
          );
        }),
      );
      throw error;
    } finally {
      for (const call of calls) this.controllers.delete(call.id);
    }
  }

  /** Stores an outcome (unless the call was cancelled meanwhile) and announces a final one. */
  private async store(row: CallRow, outcome: CallOutcome): Promise<void> {
    const stored = await this.calls.finish(row.id, outcome);
    if (!stored) return;
    if (outcome.status === 'awaiting_approval') {
      // The engine announced it before the outcome was stored; waiters read the call now.
      this.bus.settled(row.id, 'awaiting_approval');
      return;
    }
    this.bus.emit({
      type: 'finished',
      call_id: row.id,
      tool: row.toolName,
      at: Date.now(),
      ok: outcome.status === 'succeeded',
      status: outcome.status,
      ...(outcome.errorCode === null ? {} : { error_code: outcome.errorCode }),
      latency_ms: outcome.latencyMs,
      result: { ...outcome.result, call_id: row.providerCallId },
    });
  }

  /** Tools of the batch by name and version; a fallback tool by name resolves to its stable version. */
  private async resolveTool(
    input: { tools: Map<string, ToolIR>; teamId: string },
    name: string,
    version: string | undefined,
  ): Promise<ToolIR | undefined> {
    const known = input.tools.get(toolKey(name, version));
    if (known !== undefined) return known;
    const [tool] = await this.calls.findCallableTools([name], input.teamId);
    const wanted = version ?? tool?.release?.stableVersion ?? undefined;
    const row = tool?.versions.find((candidate) => candidate.version === wanted);
    if (row === undefined) return undefined;
    const ir = row.ir as unknown as ToolIR;
    input.tools.set(toolKey(name, version), ir);
    return ir;
  }
}
