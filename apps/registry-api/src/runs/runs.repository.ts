import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type {
  CompensatedCall,
  CompensationPolicy,
  PlanCall,
  PlanStep,
  RunCompensation,
  RunMode,
  RunReason,
  RunStatus,
  RunStepStatus,
} from '@toolgate/contract';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import {
  Prisma,
  type Run as PrismaRun,
  type RunStep as PrismaRunStep,
} from '../generated/prisma/client';

/** A run as the service sees it: JSON columns read into their types here, nowhere else. */
export interface RunRow {
  id: string;
  teamId: string;
  keyId: string | null;
  actor: string;
  conversationId: string | null;
  mode: RunMode;
  status: RunStatus;
  metadata: Record<string, unknown> | null;
  failedStep: string | null;
  reason: RunReason | null;
  compensation: CompensationPolicy;
  compensations: StoredCompensation[];
  createdAt: Date;
  updatedAt: Date;
}

/** A compensation as the run keeps it: the contract's, with the attempt of the step it answered. */
export interface StoredCompensation extends RunCompensation {
  /** The failed step's attempt, so an automatic compensation is asked once per attempt. */
  failed_attempt: number | null;
}

/** A compensation step to add: one compensating call, after the step before it in the chain. */
export interface NewCompensationStep {
  name: string;
  call: PlanCall;
  compensates: CompensatedCall;
  dependsOn: string[];
}

/** A step of a run: a turn (provider set) or a plan step (planned calls set). */
export interface RunStepRow {
  id: string;
  runId: string;
  name: string;
  position: number;
  provider: string | null;
  plannedCalls: PlanCall[] | null;
  dependsOn: string[];
  status: RunStepStatus;
  attempt: number;
  reason: RunReason | null;
  /** For a compensation step, the call it undoes. */
  compensates: CompensatedCall | null;
  /** Per planned call, the attempt whose call record stands; empty when all are `attempt`'s. */
  callAttempts: number[];
  startedAt: Date | null;
  finishedAt: Date | null;
}

export { FINAL_RUN_STATUSES } from '@toolgate/contract';

function runOf(row: PrismaRun): RunRow {
  return {
    id: row.id,
    teamId: row.teamId,
    keyId: row.keyId,
    actor: row.actor,
    conversationId: row.conversationId,
    mode: row.mode,
    status: row.status,
    // Written by this repository only, from the contract's schemas.
    metadata: row.metadata as Record<string, unknown> | null,
    failedStep: row.failedStep,
    reason: row.reason as RunReason | null,
    compensation: row.compensation === 'automatic' ? 'automatic' : 'manual',
    compensations: row.compensations as unknown as StoredCompensation[],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function stepOf(row: PrismaRunStep): RunStepRow {
  return {
    id: row.id,
    runId: row.runId,
    name: row.name,
    position: row.position,
    provider: row.provider,
    plannedCalls: row.plannedCalls as PlanCall[] | null,
    dependsOn: row.dependsOn,
    status: row.status,
    attempt: row.attempt,
    reason: row.reason as RunReason | null,
    compensates: row.compensates as CompensatedCall | null,
    callAttempts: row.callAttempts,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

function jsonOrNull(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null || value === undefined ? Prisma.DbNull : value;
}

/** The one home of the `runs` and `run_steps` tables. */
@Injectable()
export class RunsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async create(input: {
    teamId: string;
    keyId: string | null;
    actor: string;
    conversationId: string | null;
    mode: RunMode;
    metadata: Record<string, unknown> | null;
    compensation: CompensationPolicy;
  }): Promise<RunRow> {
    const row = await this.database.prisma.run.create({
      data: { id: randomUUID(), ...input, metadata: jsonOrNull(input.metadata) },
    });
    return runOf(row);
  }

  async find(id: string, teamId: string | null): Promise<RunRow | undefined> {
    const row = await this.database.prisma.run.findFirst({
      where: { id, ...(teamId === null ? {} : { teamId }) },
    });
    return row === null ? undefined : runOf(row);
  }

  async list(filter: {
    teamId: string | null;
    status?: RunStatus | undefined;
    before?: { createdAt: Date; id: string } | undefined;
    limit: number;
  }): Promise<RunRow[]> {
    const before = filter.before;
    const rows = await this.database.prisma.run.findMany({
      where: {
        ...(filter.teamId === null ? {} : { teamId: filter.teamId }),
        ...(filter.status === undefined ? {} : { status: filter.status }),
        ...(before === undefined
          ? {}
          : {
              OR: [
                { createdAt: { lt: before.createdAt } },
                { createdAt: before.createdAt, id: { lt: before.id } },
              ],
            }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: filter.limit,
    });
    return rows.map(runOf);
  }

  /** Runs a process must carry on with (after a restart, nothing else will). */
  async unfinishedIds(limit: number): Promise<string[]> {
    const rows = await this.database.prisma.run.findMany({
      where: { status: { in: ['running', 'awaiting_approval', 'compensating'] } },
      select: { id: true },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /** The runs whose steps hold these calls (calls outside runs have none). */
  async runIdsOfCalls(callIds: readonly string[]): Promise<string[]> {
    const rows = await this.database.prisma.runStep.findMany({
      where: { calls: { some: { id: { in: [...callIds] } } } },
      select: { runId: true },
      distinct: ['runId'],
    });
    return rows.map((row) => row.runId);
  }

  async steps(runId: string): Promise<RunStepRow[]> {
    const rows = await this.database.prisma.runStep.findMany({
      where: { runId },
      orderBy: [{ position: 'asc' }],
    });
    return rows.map(stepOf);
  }

  /**
   * Moves a run to a status unless it already ended (or is in none of `from`); returns whether it
   * did. Every transition is conditional, so two processes advancing one run cannot undo each other.
   */
  async setStatus(
    runId: string,
    change: { status: RunStatus; failedStep?: string | null; reason?: RunReason | null },
    from: readonly RunStatus[] = [
      'running',
      'awaiting_approval',
      'awaiting_decision',
      'compensating',
    ],
  ): Promise<boolean> {
    const { count } = await this.database.prisma.run.updateMany({
      where: { id: runId, status: { in: [...from] } },
      data: {
        status: change.status,
        ...(change.failedStep === undefined ? {} : { failedStep: change.failedStep }),
        ...(change.reason === undefined ? {} : { reason: jsonOrNull(change.reason) }),
        updatedAt: new Date(),
      },
    });
    return count > 0;
  }

  /** Takes a pending step of this attempt to `running`; false when another process took it. */
  async startStep(step: Pick<RunStepRow, 'id' | 'attempt'>): Promise<boolean> {
    const { count } = await this.database.prisma.runStep.updateMany({
      where: { id: step.id, attempt: step.attempt, status: 'pending' },
      data: { status: 'running', startedAt: new Date(), finishedAt: null, reason: Prisma.DbNull },
    });
    return count > 0;
  }

  /** Checkpoints a running step of this attempt as ended; false when it had ended already. */
  async finishStep(
    step: Pick<RunStepRow, 'id' | 'attempt'>,
    outcome: {
      status: Extract<RunStepStatus, 'succeeded' | 'failed' | 'outcome_unknown'>;
      reason: RunReason | null;
    },
  ): Promise<boolean> {
    const { count } = await this.database.prisma.runStep.updateMany({
      where: { id: step.id, attempt: step.attempt, status: 'running' },
      data: { status: outcome.status, reason: jsonOrNull(outcome.reason), finishedAt: new Date() },
    });
    return count > 0;
  }

  /** The turn step of this name, created `running` at the end of the run when it is new. */
  turnStep(
    runId: string,
    input: { name: string; provider: string },
  ): Promise<{ step: RunStepRow; created: boolean }> {
    return inTransaction(this.database.prisma, async (tx) => {
      const existing = await tx.runStep.findUnique({
        where: { runId_name: { runId, name: input.name } },
      });
      if (existing !== null) return { step: stepOf(existing), created: false };
      const position = await tx.runStep.count({ where: { runId } });
      const row = await tx.runStep.create({
        data: {
          id: randomUUID(),
          runId,
          name: input.name,
          position,
          provider: input.provider,
          status: 'running',
          startedAt: new Date(),
        },
      });
      return { step: stepOf(row), created: true };
    });
  }

  /** Removes a turn step a refused request created before anything was recorded for it. */
  async discardStep(stepId: string): Promise<void> {
    await this.database.prisma.runStep.deleteMany({ where: { id: stepId, calls: { none: {} } } });
  }

  /**
   * Writes a plan in one transaction: steps that succeeded are kept as they are, the posted ones
   * are created or reset to `pending` with a new attempt, the run's other unfinished steps are
   * cancelled, and the run runs again. False when the run ended or a step still runs meanwhile.
   */
  replacePlan(runId: string, steps: readonly PlanStep[]): Promise<boolean> {
    return inTransaction(this.database.prisma, async (tx) => {
      const run = await tx.run.updateMany({
        where: { id: runId, status: { in: ['running', 'failed', 'awaiting_decision'] } },
        data: { status: 'running', failedStep: null, reason: Prisma.DbNull, updatedAt: new Date() },
      });
      if (run.count === 0) return false;
      const existing = new Map(
        (await tx.runStep.findMany({ where: { runId } })).map((row) => [row.name, row]),
      );
      if ([...existing.values()].some((row) => row.status === 'running')) {
        throw new PlanConflict();
      }
      let position = existing.size;
      const posted = new Set<string>();
      for (const step of steps) {
        posted.add(step.name);
        const known = existing.get(step.name);
        if (known?.status === 'succeeded') continue;
        const data = {
          plannedCalls: step.calls as unknown as Prisma.InputJsonValue,
          dependsOn: step.depends_on,
          status: 'pending' as const,
          reason: Prisma.DbNull,
          startedAt: null,
          finishedAt: null,
        };
        if (known === undefined) {
          await tx.runStep.create({
            data: { id: randomUUID(), runId, name: step.name, position: position++, ...data },
          });
        } else {
          await tx.runStep.update({
            where: { id: known.id },
            data: { ...data, attempt: known.attempt + 1, callAttempts: [] },
          });
        }
      }
      const dropped = [...existing.values()].filter(
        (row) =>
          !posted.has(row.name) && ['pending', 'failed', 'outcome_unknown'].includes(row.status),
      );
      if (dropped.length > 0) {
        await tx.runStep.updateMany({
          where: { id: { in: dropped.map((row) => row.id) } },
          data: { status: 'cancelled' },
        });
      }
      return true;
    });
  }

  /** Applies a decision on a stopped step: retried (pending, next attempt), skipped or failed. */
  decide(
    step: Pick<RunStepRow, 'id' | 'attempt'>,
    decision: {
      action: 'retry' | 'skip' | 'fail';
      reason: RunReason;
      /** For a retry: per planned call, the attempt whose record stands (see `RunStepRow.callAttempts`). */
      callAttempts?: number[];
    },
  ): Promise<boolean> {
    const { action, reason, callAttempts = [] } = decision;
    return this.database.prisma.runStep
      .updateMany({
        where: {
          id: step.id,
          attempt: step.attempt,
          status: { in: ['outcome_unknown', 'failed'] },
        },
        data:
          action === 'retry'
            ? {
                status: 'pending',
                attempt: step.attempt + 1,
                callAttempts,
                reason: Prisma.DbNull,
                startedAt: null,
                finishedAt: null,
              }
            : {
                status: action === 'skip' ? 'skipped' : 'failed',
                reason: reason,
                finishedAt: new Date(),
              },
      })
      .then(({ count }) => count > 0);
  }

  /**
   * Adds a compensation in one transaction: its steps (pending, chained latest-first) and its
   * report, and the run goes `compensating` (when there is anything to run). False when the run is
   * in none of `from`, or when one of the steps exists already (another process added it first).
   */
  addCompensation(
    runId: string,
    input: {
      steps: readonly NewCompensationStep[];
      report: StoredCompensation;
      from: readonly RunStatus[];
    },
  ): Promise<boolean> {
    return inTransaction(this.database.prisma, async (tx) => {
      const existing = await tx.runStep.findMany({ where: { runId } });
      if (existing.some((row) => row.status === 'running')) throw new PlanConflict();
      const names = new Set(existing.map((row) => row.name));
      if (input.steps.some((step) => names.has(step.name))) return false;
      const run = await tx.run.findFirst({ where: { id: runId, status: { in: [...input.from] } } });
      if (run === null) return false;
      const compensations = [
        ...(run.compensations as unknown as StoredCompensation[]),
        input.report,
      ];
      await tx.run.update({
        where: { id: runId },
        data: {
          status: input.steps.length === 0 ? run.status : 'compensating',
          compensations: compensations as unknown as Prisma.InputJsonValue,
          updatedAt: new Date(),
        },
      });
      let position = existing.length;
      for (const step of input.steps) {
        await tx.runStep.create({
          data: {
            id: randomUUID(),
            runId,
            name: step.name,
            position: position++,
            plannedCalls: [step.call] as unknown as Prisma.InputJsonValue,
            dependsOn: step.dependsOn,
            compensates: { ...step.compensates },
          },
        });
      }
      return true;
    });
  }

  /** Ends a run as cancelled with its steps that had not ended; false when it had ended already. */
  cancel(runId: string): Promise<boolean> {
    return inTransaction(this.database.prisma, async (tx) => {
      const { count } = await tx.run.updateMany({
        where: { id: runId, status: { notIn: ['succeeded', 'failed', 'cancelled'] } },
        data: { status: 'cancelled', updatedAt: new Date() },
      });
      if (count === 0) return false;
      await tx.runStep.updateMany({
        where: { runId, status: { in: ['pending', 'running'] } },
        data: { status: 'cancelled', finishedAt: new Date() },
      });
      return true;
    });
  }
}

/** A re-plan while a step of the run still runs. */
export class PlanConflict extends Error {
  override readonly name = 'PlanConflict';
}
