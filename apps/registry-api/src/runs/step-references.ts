import type { RunReason, StepReference } from '@toolgate/contract';
import { StepReferenceSchema } from '@toolgate/contract';
import { parseJsonPointer, resolveJsonPointer } from '@toolgate/toolir';

/**
 * What a `$ref` pointer reads: the referenced call's `arguments`, its `result` (the tool's data),
 * whether it was `ok`, and its `error`; `/result/order_id` is the order id the tool returned.
 */
export interface ReferencedCall {
  arguments: Record<string, unknown>;
  ok: boolean;
  result: unknown;
  error: unknown;
}

/**
 * `{"$literal": value}` in planned arguments stands for `value` as written, references and all:
 * the way to pass an object that has the shape of a `$ref` (or contains one) to a tool.
 */
function literalOf(value: unknown): { value: unknown } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$literal'
    ? { value: (value as { $literal: unknown }).$literal }
    : undefined;
}

/** Reads an argument value as a step reference; undefined for any other value. */
export function stepReferenceOf(value: unknown): StepReference | undefined {
  if (typeof value !== 'object' || value === null || !('$ref' in value)) return undefined;
  const parsed = StepReferenceSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Every reference in a value (arguments nest them anywhere), with its JSON Pointer in the value. */
export function findStepReferences(
  value: unknown,
  path = '',
): Array<{ path: string; reference: StepReference }> {
  const reference = stepReferenceOf(value);
  if (reference !== undefined) return [{ path, reference }];
  if (literalOf(value) !== undefined) return [];
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => findStepReferences(item, `${path}/${index}`));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      findStepReferences(item, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
    );
  }
  return [];
}

export type ResolvedArguments =
  { ok: true; arguments: Record<string, unknown> } | { ok: false; reason: RunReason };

/**
 * Replaces each reference in a call's arguments with the value it points at in a completed
 * step's call; the first that points at nothing fails the whole step (never a guessed value).
 */
export function resolveStepReferences(
  args: Record<string, unknown>,
  lookup: (step: string, call: number) => ReferencedCall | undefined,
): ResolvedArguments {
  let failure: RunReason | undefined;
  const resolve = (value: unknown): unknown => {
    if (failure !== undefined) return value;
    const reference = stepReferenceOf(value);
    if (reference !== undefined) {
      const { step, call, pointer } = reference.$ref;
      const target = lookup(step, call);
      const tokens = parseJsonPointer(pointer);
      const resolved =
        target === undefined || tokens === undefined
          ? undefined
          : resolveJsonPointer(target, tokens);
      if (resolved === undefined) {
        failure = {
          code: 'unresolved_reference',
          message:
            target === undefined
              ? `step "${step}" has no completed call ${call}`
              : `"${pointer}" names nothing in call ${call} of step "${step}"`,
          retryable: false,
        };
      }
      return resolved;
    }
    const literal = literalOf(value);
    if (literal !== undefined) return literal.value;
    if (Array.isArray(value)) return value.map(resolve);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item)]));
    }
    return value;
  };
  const resolved = resolve(args) as Record<string, unknown>;
  return failure === undefined ? { ok: true, arguments: resolved } : { ok: false, reason: failure };
}
