import type { PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { ToolException, type ProblemIssue } from '../problem/tool.exception';

/** Renders a zod path as a JSON Pointer prefixed with where the input came from (`/body/name`). */
export function issuesFromZodError(error: z.ZodError, origin: string): ProblemIssue[] {
  return flattenIssues(error.issues, []).map((issue) => ({
    path: `/${origin}${issue.path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`,
    message: issue.message,
  }));
}

/**
 * A union's "invalid input" says nothing useful; report the issues of the branch that came
 * closest (fewest issues) instead, so the caller learns what to fix.
 */
function flattenIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: PropertyKey[],
): Array<{ path: PropertyKey[]; message: string }> {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key], message: 'is not a known field' }));
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = [...issue.errors].sort((left, right) => left.length - right.length)[0] ?? [];
      if (closest.length > 0) return flattenIssues(closest, path);
    }
    return [{ path, message: issue.message }];
  });
}

/** Deeper JSON than any real tool schema; recursion over deeper input (schema checks, diffs) risks the stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * Finds what no schema should have to think about: nesting deeper than MAX_JSON_DEPTH, and NUL
 * characters, which Postgres cannot store in text or jsonb (they would surface as a 500).
 */
function findUnstorableValue(value: unknown, path: string, depth: number): ProblemIssue | null {
  if (typeof value === 'string') {
    return value.includes('\u0000') ? { path, message: 'must not contain NUL characters' } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= MAX_JSON_DEPTH)
    return { path, message: `nesting deeper than ${MAX_JSON_DEPTH} levels is not accepted` };
  for (const [key, item] of Object.entries(value)) {
    const itemPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (key.includes('\u0000'))
      return { path: itemPath, message: 'keys must not contain NUL characters' };
    const found = findUnstorableValue(item, itemPath, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The outcome of checking one request part: its parsed value, or every problem found. */
export type RequestPartCheck<TValue> =
  { ok: true; value: TValue } | { ok: false; issues: ProblemIssue[] };

/**
 * Checks one request part (body, query, headers, a path parameter) against a schema, after the
 * checks no schema should have to make (NUL characters, nesting depth).
 */
export function findRequestProblems<TSchema extends z.ZodType>(
  schema: TSchema,
  value: unknown,
  /** Where the value came from, as the first segments of issue paths: `body`, `query`, `params/toolId`. */
  origin: string,
): RequestPartCheck<z.output<TSchema>> {
  const unsafe = findUnstorableValue(value, `/${origin}`, 0);
  if (unsafe) return { ok: false, issues: [unsafe] };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, issues: issuesFromZodError(parsed.error, origin) };
}

/** Validates one request part with a zod schema; every failure is a 400 problem. */
export class ZodValidationPipe<TSchema extends z.ZodType> implements PipeTransform<
  unknown,
  z.output<TSchema>
> {
  constructor(
    private readonly schema: TSchema,
    /** Where the value came from, as the first segments of issue paths: `body`, `query`, `params/toolId`. */
    private readonly origin: string = 'body',
  ) {}

  transform(value: unknown): z.output<TSchema> {
    const result = findRequestProblems(this.schema, value, this.origin);
    if (result.ok) return result.value;
    throw new ToolException(
      'invalid_request',
      `The request ${this.origin.split('/')[0] ?? 'input'} is invalid.`,
      { issues: result.issues },
    );
  }
}
