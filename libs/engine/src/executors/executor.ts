import { ToolgateError, type ContentBlock, type ToolCallIR, type ToolIR } from '@toolgate/toolir';
import type { FailureSignal } from '../classification/failure-signal';
import type { EngineLogger } from '../telemetry/logger';
import type { ExecutorConfig, ExecutorKind } from '@toolgate/contract';
import type { McpClientRelay } from './mcp-client-relay';
import type { SecretResolver } from './secret-resolver';

/** A progress report from a running tool. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** Everything an executor gets for one attempt. */
export interface ExecutorRequest<TConfig extends ExecutorConfig = ExecutorConfig> {
  tool: ToolIR;
  call: ToolCallIR;
  /** The validated arguments (defaults applied). */
  arguments: Record<string, unknown>;
  config: TConfig;
  /** Aborted when the attempt times out or the caller cancels; executors must stop their I/O. */
  signal: AbortSignal;
  reportProgress: (update: ProgressUpdate) => void;
  /** The injected clock, e.g. for `Retry-After` dates. */
  now: () => number;
  logger: EngineLogger;
  /** The secrets of the team the call runs for; an executor falls back to its own resolver. */
  secrets?: SecretResolver;
  /** The way back to the client that made the call, for what an upstream MCP server asks of it. */
  clientRelay?: McpClientRelay;
  /** Request headers the gateway adds to this call (an expected version's `If-Match`); http only. */
  headers?: Record<string, string>;
}

/** What one attempt produced: data (and content blocks) or a failure to classify. */
export type ExecutorOutcome =
  | {
      ok: true;
      data?: unknown;
      content?: ContentBlock[];
      /** Response headers the tool declares it reports through (lower-case names), e.g. `etag`. */
      headers?: Record<string, string>;
      /** What the upstream reported the call cost, in US dollars (see `constraints.cost_report`). */
      cost_usd?: number;
    }
  | { ok: false; failure: FailureSignal };

/** Runs tools of one executor kind. */
export interface ToolExecutor<TKind extends ExecutorKind = ExecutorKind> {
  readonly kind: TKind;
  execute(
    request: ExecutorRequest<Extract<ExecutorConfig, { kind: TKind }>>,
  ): Promise<ExecutorOutcome>;
}

/**
 * Thrown by builtin handlers (or executors) to report a failure with classification data. Its code
 * is always `execution_failed`: what the failure means is the classification table's decision,
 * made from `signal` (also its `details`), not the thrower's.
 */
export class ToolExecutionError extends ToolgateError<'execution_failed'> {
  declare readonly details: FailureSignal;

  constructor(signal: FailureSignal) {
    super('execution_failed', signal.message, { details: signal });
    this.name = 'ToolExecutionError';
  }

  /** The failure as the classification table reads it. */
  get signal(): FailureSignal {
    return this.details;
  }
}

/** Reads a Node/undici error code (`ECONNRESET`, `UND_ERR_SOCKET`) from an error or its cause. */
export function networkCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The ToolExecutionError in an error or its causes: a refusal raised inside a connection attempt
 * (the egress check in the dispatcher's connector) reaches the executor wrapped by undici or fetch.
 */
export function toolExecutionErrorOf(error: unknown): ToolExecutionError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    if (current instanceof ToolExecutionError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Turns anything an executor threw into a failure signal. */
export function failureFromError(error: unknown, signal: AbortSignal): FailureSignal {
  const thrown = toolExecutionErrorOf(error);
  if (thrown !== undefined) return thrown.signal;
  const message = error instanceof Error ? error.message : String(error);
  if (signal.aborted) return { aborted: true, message: 'the call was cancelled' };
  const networkCode = networkCodeOf(error);
  if (networkCode !== undefined)
    return { network_code: networkCode, message: `network error ${networkCode}` };
  return { code: 'tool_error', message };
}
