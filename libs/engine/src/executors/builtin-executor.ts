import type { ToolCallIR, ToolIR } from '@toolgate/toolir';
import type { ExecutorOutcome, ExecutorRequest, ProgressUpdate, ToolExecutor } from './executor';
import { failureFromError } from './executor';
import type { BuiltinExecutorConfig } from '@toolgate/contract';

/** What a builtin handler gets besides the arguments. */
export interface BuiltinHandlerContext {
  /** Aborted on timeout or cancellation; long-running handlers must watch it. */
  signal: AbortSignal;
  reportProgress: (update: ProgressUpdate) => void;
  call: ToolCallIR;
  tool: ToolIR;
}

/** A tool implemented in code; its return value becomes the result's `data`, a thrown `ToolExecutionError` a classified failure. */
export type BuiltinHandler = (
  args: Record<string, unknown>,
  context: BuiltinHandlerContext,
) => unknown;

/** The `builtin` executor: runs handlers registered in code (tests, examples, in-process tools). */
export class BuiltinExecutor implements ToolExecutor<'builtin'> {
  readonly kind = 'builtin';
  private readonly handlers = new Map<string, BuiltinHandler>();

  /** Registers (or replaces) the handler a tool's `{kind: 'builtin', handler: name}` config refers to. */
  registerBuiltin(name: string, handler: BuiltinHandler): this {
    this.handlers.set(name, handler);
    return this;
  }

  async execute(request: ExecutorRequest<BuiltinExecutorConfig>): Promise<ExecutorOutcome> {
    const handler = this.handlers.get(request.config.handler);
    if (handler === undefined) {
      return {
        ok: false,
        failure: { code: 'internal', message: `no builtin handler "${request.config.handler}"` },
      };
    }
    try {
      const data: unknown = await handler(request.arguments, {
        signal: request.signal,
        reportProgress: request.reportProgress,
        call: request.call,
        tool: request.tool,
      });
      return { ok: true, data };
    } catch (error) {
      return { ok: false, failure: failureFromError(error, request.signal) };
    }
  }
}
