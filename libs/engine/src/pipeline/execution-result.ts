import type { ContentBlock, ResultErrorCode, ToolResultIR } from '@toolgate/toolir';
import type { ErrorLayer } from '../classification/classification-table';
import type { PolicyDecision } from '../policy/policy-engine';
import type { TruncationReport } from '../truncate/truncate-result';

/** A normalized error: what the model reads (`message`), whether trying again may help, and a short human text. */
export interface EngineError {
  /**
   * Always a code of the table: every failure goes through the classification table, whose rows
   * may only name result codes, so a tool's own code never reaches a result as is.
   */
  code: ResultErrorCode;
  message: string;
  retryable: boolean;
  /** A short explanation for people (and models) when the raw message is hidden or technical. */
  user_message?: string;
  details?: unknown;
}

/** A tool result in ToolIR shape, whose error may carry a `user_message`. */
export interface EngineToolResult {
  call_id: string;
  name: string;
  ok: boolean;
  data?: unknown;
  content?: ContentBlock[];
  error?: EngineError;
  truncated?: boolean;
  /** The gateway's notes about the call for the app (ToolResultIR `_meta`). */
  _meta?: Record<string, unknown>;
}

/** Where a call ended: done, failed, or waiting for a person's approval (not executed). */
export type ExecutionStatus = 'succeeded' | 'failed' | 'awaiting_approval';

/** A call's own tool cost in US dollars: reported by the upstream, or the version's estimate. */
export interface ToolCost {
  usd: number;
  source: 'estimate' | 'reported';
}

/** How a call was executed, for call records, audits and dashboards. */
export interface ExecutionMetadata {
  /** Executor attempts made, over the tool and its fallbacks. */
  attempts: number;
  /**
   * The tool whose executor produced the result (a fallback's name when one answered), or `cache`
   * when the result cache answered without executing.
   */
  answered_by?: string;
  /** How old the cached result was, when the cache answered. */
  cache_age_ms?: number;
  /** What the result cache did for a version that declares one. */
  cache?: 'hit' | 'miss' | 'refresh';
  /** The version of the tool that answered. */
  answered_by_version?: string;
  latency_ms: number;
  /** The policy decision of the called tool. */
  decision?: PolicyDecision;
  approval?: {
    approval_id: string;
    status: 'approved' | 'pending' | 'denied' | 'expired';
    reason: string;
  };
  /** Which pipeline layer handled the failure, from the classification table. */
  error_layer?: ErrorLayer;
  /** What truncation cut; `handle` retrieves the full result from the ResultStore. */
  truncation?: TruncationReport & { handle?: string };
  /** The resource the call wrote or read and the version it reported (tools that declare concurrency). */
  resource?: { key: string; version: string };
  /** The tool's own cost of the call; absent when no executor ran or nothing is known of it. */
  tool_cost?: ToolCost;
  /** Fallback tools tried, in order, with why each did not answer. */
  fallbacks?: { tool: string; outcome: string }[];
}

/** The outcome of one call: its status, its result and how it was reached. */
export interface ExecutionResult {
  status: ExecutionStatus;
  result: EngineToolResult;
  execution: ExecutionMetadata;
}

/** The plain ToolResultIR of a result (drops `user_message`, which ToolIR results do not carry). */
export function plainToolResult(result: EngineToolResult): ToolResultIR {
  const { error, ...rest } = result;
  if (error === undefined) return rest;
  return {
    ...rest,
    error: {
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}

/** The plain ToolResultIR of an execution. */
export function toToolResultIR(execution: ExecutionResult): ToolResultIR {
  return plainToolResult(execution.result);
}
