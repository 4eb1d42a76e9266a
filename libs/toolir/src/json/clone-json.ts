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
  for (const [key, member] of Object.entries(value)) {
    // defineProperty, not assignment: a `__proto__` key in untrusted JSON must stay a plain key.
    Object.defineProperty(copy, key, {
      value: cloneJson(member),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy as TValue;
}
