import type { RouteDefinition } from '@toolgate/contract';
import { COMMON_PROBLEMS } from '@toolgate/contract';
import type { z } from 'zod';

/**
 * How answers are held to the contract: `strict` (tests) refuses a body that drifts from its
 * schema with a 500 and records every drift, `warn` logs drifts and sends the body anyway, `off`
 * skips the check.
 */
export type ResponseCheckMode = 'off' | 'warn' | 'strict';

/** One way an answer departed from its route's contract. */
export interface ContractViolation {
  operationId: string;
  status: number;
  problems: string[];
}

/** The member paths (JSON Pointers) of `original` that parsing with a stripping schema dropped. */
function droppedMembers(original: unknown, parsed: unknown, path = ''): string[] {
  if (Array.isArray(original) && Array.isArray(parsed)) {
    return original.flatMap((item, index) =>
      droppedMembers(item, parsed[index], `${path}/${index}`),
    );
  }
  if (
    typeof original !== 'object' ||
    original === null ||
    typeof parsed !== 'object' ||
    parsed === null
  ) {
    return [];
  }
  return Object.entries(original).flatMap(([key, value]) => {
    const memberPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!(key in parsed))
      return value === undefined ? [] : [`${memberPath} is not in the contract`];
    return droppedMembers(value, (parsed as Record<string, unknown>)[key], memberPath);
  });
}

/** What is wrong with `body` as the answer `status` of `route`; empty when it matches. */
export function checkResponse(route: RouteDefinition, status: number, body: unknown): string[] {
  const response = route.responses[status];
  if (response === undefined) return [`status ${status} is not declared`];
  const schema: z.ZodType | undefined = response.schema;
  if (schema === undefined) {
    return body === undefined || body === null || body === ''
      ? []
      : ['the route declares no body for this status'];
  }
  // A body already sent as text (a cached export) is checked as the JSON it is.
  const value = typeof body === 'string' ? safeJson(body) : body;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    return parsed.error.issues.map(
      (issue) => `/${issue.path.map(String).join('/')}: ${issue.message}`,
    );
  }
  return droppedMembers(JSON.parse(JSON.stringify(value ?? null)), parsed.data);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether a problem `code` is one the route declares (or one every route may answer). */
export function declaresProblem(route: RouteDefinition, code: string): boolean {
  return (
    (COMMON_PROBLEMS as readonly string[]).includes(code) ||
    (route.problems as readonly string[]).includes(code)
  );
}

const violations: ContractViolation[] = [];

/** Remembers a violation so a test run can fail on it even when the answer still looked fine. */
export function recordViolation(violation: ContractViolation): void {
  violations.push(violation);
}

/** The violations recorded so far, and forgets them (for test harnesses). */
export function takeContractViolations(): ContractViolation[] {
  return violations.splice(0, violations.length);
}
