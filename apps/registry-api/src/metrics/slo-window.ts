import { TimeWindowSchema, type TimeWindow } from '@toolgate/contract';

// The usage report reads the same windows from here.
export { TimeWindowSchema, type TimeWindow };

const HOUR_MS = 3_600_000;

/** Each window's length and the chart bucket size, so every chart has 12 to 30 points. */
const WINDOWS: Record<TimeWindow, { lengthMs: number; bucketMs: number }> = {
  '1h': { lengthMs: HOUR_MS, bucketMs: 5 * 60_000 },
  '24h': { lengthMs: 24 * HOUR_MS, bucketMs: HOUR_MS },
  '7d': { lengthMs: 7 * 24 * HOUR_MS, bucketMs: 6 * HOUR_MS },
  '30d': { lengthMs: 30 * 24 * HOUR_MS, bucketMs: 24 * HOUR_MS },
};

export interface WindowRange {
  from: Date;
  to: Date;
  bucketMs: number;
}

/** The range of a window ending now. */
export function windowRange(window: TimeWindow, now: Date = new Date()): WindowRange {
  const { lengthMs, bucketMs } = WINDOWS[window];
  return { from: new Date(now.getTime() - lengthMs), to: now, bucketMs };
}

/** Bucket starts covering [from, to], aligned to multiples of the bucket size since the epoch. */
export function bucketStarts(range: WindowRange): Date[] {
  const starts: Date[] = [];
  const first = Math.floor(range.from.getTime() / range.bucketMs) * range.bucketMs;
  for (let start = first; start <= range.to.getTime(); start += range.bucketMs) {
    starts.push(new Date(start));
  }
  return starts;
}
