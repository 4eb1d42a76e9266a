/**
 * Sets an own, enumerable data property as JSON.parse does, also for the key `__proto__`, which a
 * plain assignment would turn into a prototype change (and lose from the data).
 */
export function setOwnProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}
