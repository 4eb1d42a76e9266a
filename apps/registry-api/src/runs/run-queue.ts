import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  BullMqDriver,
  DeferJobError,
  InProcessDriver,
  JobName,
  PermanentJobError,
  QueueName,
  type QueueDriver,
  type ReceivedJob,
} from '@toolgate/persistence';
import { engineLogger } from '../calls/gateway-host';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import { RunAdvancer } from './run-advancer';
import { RunsRepository } from './runs.repository';

// Runs advanced at once by this process.
const RUN_CONCURRENCY = 16;
// Unfinished runs picked up at start.
const RECOVERY_BATCH = 1_000;

/**
 * Where advancing a run is a job: on BullMQ (REDIS_URL) a job survives this process and another
 * API process takes it over; in the embedded default the in-process queue runs it here, and at
 * start every unfinished run gets a job again, so a run goes on after a restart either way.
 */
@Injectable()
export class RunQueue implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RunQueue');
  private readonly driver: QueueDriver;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(RunAdvancer) private readonly advancer: RunAdvancer,
    @Inject(RunsRepository) private readonly runs: RunsRepository,
  ) {
    const logger = engineLogger(this.logger);
    this.driver =
      config.REDIS_URL === undefined
        ? new InProcessDriver({ queue: QueueName.Runs, logger })
        : new BullMqDriver({
            queue: QueueName.Runs,
            redisUrl: config.REDIS_URL,
            prefix: config.QUEUE_PREFIX,
            logger,
          });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.driver.process((job) => this.handle(job), { concurrency: RUN_CONCURRENCY });
    try {
      const ids = await this.runs.unfinishedIds(RECOVERY_BATCH);
      // Fresh job ids: a job of a stopped process may still be held by the queue until it stalls.
      await Promise.all(ids.map((id) => this.enqueue(id)));
    } catch (error) {
      this.logger.warn(`recovering unfinished runs failed: ${String(error)}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.driver.close({ drainTimeoutMs: 5_000 });
  }

  /** Asks for the run to be advanced by whichever process takes the job. */
  async enqueue(runId: string): Promise<void> {
    await this.driver.enqueue({
      name: JobName.AdvanceRun,
      id: `${runId}.${randomUUID()}`,
      data: { run_id: runId },
    });
  }

  /** As `enqueue`, for callers that must not wait; a lost job is made up for at the next start. */
  advanceSoon(runId: string): void {
    this.enqueue(runId).catch((error: unknown) => {
      this.logger.error(`enqueueing run ${runId} failed: ${String(error)}`);
    });
  }

  /** Advances the runs these calls belong to (a decided approval), without waiting. */
  advanceRunsOfCalls(callIds: readonly string[]): void {
    if (callIds.length === 0) return;
    this.runs
      .runIdsOfCalls(callIds)
      .then((runIds) => {
        for (const runId of runIds) this.advanceSoon(runId);
      })
      .catch((error: unknown) => {
        this.logger.error(`finding the runs of calls failed: ${String(error)}`);
      });
  }

  private async handle(job: ReceivedJob): Promise<unknown> {
    const data = job.data;
    if (!('run_id' in data)) throw new PermanentJobError(`job ${job.id} is not a run's`);
    const outcome = await this.advancer.advance(data.run_id);
    if (outcome.kind === 'later') throw new DeferJobError(outcome.delayMs);
    return outcome;
  }
}
