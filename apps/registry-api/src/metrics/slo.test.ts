import { describe, expect, it } from 'vitest';
import { evaluateSlo, ratio } from './slo';
import { bucketStarts, windowRange } from './slo-window';

describe('SLOs', () => {
  it('meets rates at or above target and latency at or below it; no data judges nothing', () => {
    expect(evaluateSlo('success_rate', 0.995).met).toBe(true);
    expect(evaluateSlo('success_rate', 0.9949).met).toBe(false);
    expect(evaluateSlo('p95_latency_ms', 2000).met).toBe(true);
    expect(evaluateSlo('p95_latency_ms', 2000.5).met).toBe(false);
    expect(evaluateSlo('destructive_approval_rate', 1).met).toBe(true);
    expect(evaluateSlo('destructive_approval_rate', null)).toEqual({
      name: 'destructive_approval_rate',
      target: 1,
      actual: null,
      met: null,
    });
    expect(ratio(1, 0)).toBeNull();
    expect(ratio(199, 200)).toBe(0.995);
  });

  it('covers each window with aligned buckets', () => {
    const now = new Date('2026-11-30T10:07:30.000Z');
    const hour = windowRange('1h', now);
    const starts = bucketStarts(hour);
    expect(starts[0]?.toISOString()).toBe('2026-11-30T09:05:00.000Z');
    expect(starts.at(-1)?.toISOString()).toBe('2026-11-30T10:05:00.000Z');
    expect(starts).toHaveLength(13);
    expect(bucketStarts(windowRange('24h', now))).toHaveLength(25);
    expect(bucketStarts(windowRange('7d', now))).toHaveLength(29);
    expect(bucketStarts(windowRange('30d', now))).toHaveLength(31);
  });
});
