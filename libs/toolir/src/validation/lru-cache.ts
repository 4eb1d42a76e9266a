/** A small least-recently-used map: `get` refreshes an entry, `set` evicts the oldest beyond `capacity`. */
export class LruCache<TKey, TValue> {
  readonly #entries = new Map<TKey, TValue>();
  readonly #capacity: number;
  readonly #onEvict: ((key: TKey, value: TValue) => void) | undefined;

  constructor(capacity: number, onEvict?: (key: TKey, value: TValue) => void) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
    this.#capacity = capacity;
    this.#onEvict = onEvict;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: TKey): TValue | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as TValue;
    // Map keeps insertion order: re-inserting makes this the most recent entry.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: TKey, value: TValue): void {
    const previous = this.#entries.get(key);
    if (this.#entries.delete(key) && previous !== undefined && previous !== value)
      this.#onEvict?.(key, previous);
    this.#entries.set(key, value);
    while (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      const evicted = this.#entries.get(oldest.value) as TValue;
      this.#entries.delete(oldest.value);
      this.#onEvict?.(oldest.value, evicted);
    }
  }

  clear(): void {
    for (const [key, value] of this.#entries) this.#onEvict?.(key, value);
    this.#entries.clear();
  }
}
