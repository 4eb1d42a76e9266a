/** Reads the current time; injected so tests control it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Waits; injected so retry tests record delays instead of waiting them out. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Schedules a callback; used for attempt timeouts, returns a function that cancels it. */
export type ScheduleTimeout = (callback: () => void, ms: number) => () => void;

/** A source of uniformly distributed numbers in [0, 1), used for retry jitter. */
export type Random = () => number;

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** Sleeps with real timers; rejects with the signal's reason when the signal aborts first. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Schedules with real timers. */
export const realScheduleTimeout: ScheduleTimeout = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};
