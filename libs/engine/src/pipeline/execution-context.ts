import type { Attributes, Tracer } from '@opentelemetry/api';
import type { ToolIR } from '@toolgate/toolir';
import type { ApprovalGate } from '../approval/approval-gate';
import type { ResultCache } from '../cache/result-cache';
import type { ClassificationTable } from '../classification/classification-table';
import type { ExecutorRegistry } from '../executors/executor-registry';
import type { McpClientRelay } from '../executors/mcp-client-relay';
import type { SecretResolver } from '../executors/secret-resolver';
import type { PolicyEngine, PolicyPrincipal } from '../policy/policy-engine';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import type { RetryOptions } from '../retry/backoff';
import type { EventSink } from '../telemetry/events';
import type { TraceContentOptions } from '../telemetry/trace-content';
import type { EngineLogger } from '../telemetry/logger';
import type { ResultStore } from '../truncate/result-store';
import type { Clock, Random, ScheduleTimeout, Sleep } from './clock';

/** Finds a tool by name (and version when the call pinned one); used for calls and their fallbacks. */
export type ToolResolver = (name: string, version?: string) => Promise<ToolIR | undefined>;

/** Everything the engine needs from its host: stores, clock, executors and telemetry are injected. */
export interface ExecutionContext {
  resolveTool: ToolResolver;
  executors: ExecutorRegistry;
  /** Decides each call; without one every call is allowed. */
  policy?: PolicyEngine;
  /** Holds calls that need a person's approval; without one such calls are denied (fail closed). */
  approvals?: ApprovalGate;
  /** Enforces `constraints.rate_limit`; without one limits are not enforced. */
  rateLimiter?: RateLimiter;
  /** Answers calls of versions that declare `cache` from stored results; without one every call executes. */
  resultCache?: ResultCache;
  /**
   * The release generation of a cached tool (the host's view of its release: stable, canary and
   * share), part of the cache key so a release change misses; `none` when absent. Asked only for
   * versions that declare a cache.
   */
  cacheGeneration?: (tool: ToolIR) => Promise<string>;
  /** `refresh`: the caller asked for a fresh answer (`Cache-Control: no-cache`), stored for the next. */
  cacheMode?: 'use' | 'refresh';
  /** Keeps full results of truncated calls; without one they are not retrievable. */
  results?: ResultStore;
  /** The error classification table; the default table when absent. */
  classification?: ClassificationTable;
  /** Who is calling, for policies. */
  caller?: PolicyPrincipal;
  /**
   * Resolves the `{secret}` references of this call's executor config: the secrets of the team the
   * call runs for, so one team never reads another's. Overrides a resolver an executor was built with.
   */
  secrets?: SecretResolver;
  clock?: Clock;
  sleep?: Sleep;
  scheduleTimeout?: ScheduleTimeout;
  random?: Random;
  tracer?: Tracer;
  /** What the host knows of the call (team, key, conversation, provider), set on the call's span. */
  traceAttributes?: Attributes;
  /**
   * Whether the call's arguments, result and tool definition go on its span (opt-in: off when
   * absent), sensitive fields redacted and each value capped.
   */
  traceContent?: TraceContentOptions;
  logger?: EngineLogger;
  events?: EventSink;
  retry?: Partial<RetryOptions>;
  /** Byte budget of a result's `data` (JSON, UTF-8); larger results are truncated. Default 64 KiB. */
  maxResultBytes?: number;
  /** How long to wait for rate-limit capacity before failing with `rate_limited`. Default 0. */
  maxRateLimitWaitMs?: number;
  /** Cancels the call (every attempt, retry wait and fallback). */
  signal?: AbortSignal;
  /**
   * The way back to the client that made the call (an MCP session's), for the requests and log
   * messages an upstream MCP server sends during it; without one they are refused at once.
   */
  clientRelay?: McpClientRelay;
  /**
   * The version of the call's resource this write expects (within a run, the version the gateway
   * last saw), sent where the tool's `concurrency.expected` says; a 409/412 then ends the call as
   * `conflict` with the current version, never retried.
   */
  expectedVersion?: string;
}
