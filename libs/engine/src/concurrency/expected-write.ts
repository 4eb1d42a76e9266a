import {
  resourceKeyOf,
  resourceVersionOf,
  withExpectedVersion,
  type ToolIR,
} from '@toolgate/toolir';
import type { FailureSignal } from '../classification/failure-signal';
import type { ExecutorOutcome } from '../executors/executor';

/** A resource and the version a call saw of it. */
export interface ResourceVersion {
  /** `type:id`, as the tool's concurrency declaration names it. */
  key: string;
  version: string;
}

/** A call's write as it is sent: the arguments and headers that carry the expected version. */
export interface ExpectedWrite {
  arguments: Record<string, unknown>;
  headers: Record<string, string>;
  /** The resource the call touches, when the tool declares concurrency and the call names it. */
  resource?: string;
  /** The version the write carries; absent when the caller expects none. */
  expectedVersion?: string;
}

/**
 * Puts the expected version where the tool takes it (an argument, or a header such as `If-Match`
 * for the http executor). Only tools that declare `concurrency.expected` carry one: a version
 * given for any other tool is not sent, since that tool would not check it.
 */
export function expectedWriteOf(
  tool: ToolIR,
  args: Record<string, unknown>,
  expectedVersion: string | undefined,
): ExpectedWrite {
  const resource = resourceKeyOf(tool, { arguments: args });
  const base = resource === undefined ? {} : { resource };
  if (expectedVersion === undefined || tool.concurrency?.expected === undefined)
    return { arguments: args, headers: {}, ...base };
  const carried = withExpectedVersion(tool, args, expectedVersion);
  return { ...carried, ...base, expectedVersion };
}

/** The resource version a successful attempt reported, by the tool's declaration. */
export function reportedVersionOf(
  tool: ToolIR,
  args: Record<string, unknown>,
  outcome: Extract<ExecutorOutcome, { ok: true }>,
): ResourceVersion | undefined {
  const finished = { arguments: args, result: outcome.data };
  const key = resourceKeyOf(tool, finished);
  if (key === undefined) return undefined;
  const version = resourceVersionOf(tool, finished, outcome.headers);
  return version === undefined ? undefined : { key, version };
}

/**
 * A failure's details with the write's resource and expected version beside what the upstream
 * said (`current_version`), so a conflict tells the model what to read again and what it had.
 */
export function withConflictDetails(failure: FailureSignal, write: ExpectedWrite): FailureSignal {
  if (write.resource === undefined) return failure;
  const details =
    typeof failure.details === 'object' &&
    failure.details !== null &&
    !Array.isArray(failure.details)
      ? (failure.details as Record<string, unknown>)
      : {};
  return {
    ...failure,
    details: {
      ...details,
      resource: write.resource,
      ...(write.expectedVersion === undefined ? {} : { expected_version: write.expectedVersion }),
    },
  };
}
