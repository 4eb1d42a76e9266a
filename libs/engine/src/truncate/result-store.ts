import { randomUUID } from 'node:crypto';

/** Keeps full results that were truncated, so they stay retrievable by handle. */
export interface ResultStore {
  /** Stores a full result and returns its handle. */
  put(entry: { call_id: string; tool: string; value: unknown }): Promise<string>;
  /** The full result behind a handle, or undefined when unknown or gone. */
  get(handle: string): Promise<unknown>;
}

/** A result store kept in memory. */
export class InMemoryResultStore implements ResultStore {
  private readonly values = new Map<string, unknown>();

  put(entry: { call_id: string; tool: string; value: unknown }): Promise<string> {
    const handle = `result:${entry.call_id}:${randomUUID()}`;
    this.values.set(handle, structuredClone(entry.value));
    return Promise.resolve(handle);
  }

  get(handle: string): Promise<unknown> {
    const value = this.values.get(handle);
    return Promise.resolve(value === undefined ? undefined : structuredClone(value));
  }
}
