import { setOwnProperty } from './set-own-property';

/**
 * Deep-copies plain objects and arrays, keeping every other value as it is,
 * so a validator may write defaults into the copy without touching the caller's value.
 */
export function cloneJson<TValue>(value: TValue): TValue {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as TValue;
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) setOwnProperty(copy, key, cloneJson(member));
  return copy as TValue;
}
