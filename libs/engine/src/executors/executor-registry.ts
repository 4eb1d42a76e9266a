import type { ExecutorOutcome, ExecutorRequest, ToolExecutor } from './executor';

/** The executors available to the engine, by kind; a kind left out fails its calls with `internal`. */
export interface ExecutorSet {
  http?: ToolExecutor<'http'>;
  mcp?: ToolExecutor<'mcp'>;
  builtin?: ToolExecutor<'builtin'>;
}

/** Dispatches an attempt to the executor of its config's kind. */
export class ExecutorRegistry {
  private readonly executors: ExecutorSet;

  constructor(executors: ExecutorSet) {
    this.executors = executors;
  }

  /** Runs the attempt with the executor of `request.config.kind`. */
  execute(request: ExecutorRequest): Promise<ExecutorOutcome> {
    const config = request.config;
    const missing = (): Promise<ExecutorOutcome> =>
      Promise.resolve({
        ok: false,
        failure: { code: 'internal', message: `no ${config.kind} executor is configured` },
      });
    switch (config.kind) {
      case 'http':
        return this.executors.http?.execute({ ...request, config }) ?? missing();
      case 'mcp':
        return this.executors.mcp?.execute({ ...request, config }) ?? missing();
      case 'builtin':
        return this.executors.builtin?.execute({ ...request, config }) ?? missing();
    }
  }
}
