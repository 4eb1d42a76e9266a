import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
} from '@toolgate/persistence/testing';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpendSubject } from './budget';
import { RedisSpendCounters } from './redis-spend-counters';
import { InMemorySpendCounters, type SpendCounters } from './spend-counters';

const TEAM_DAY: SpendSubject = { scope: 'team', subjectId: 'team-1', period: 'day' };
const TEAM_MONTH: SpendSubject = { scope: 'team', subjectId: 'team-1', period: 'month' };
const KEY_DAY: SpendSubject = { scope: 'key', subjectId: 'key-1', period: 'day' };
const DEC_7 = Date.parse('2026-12-07T10:00:00Z');
const DEC_8 = Date.parse('2026-12-08T00:00:00Z');

const redis = connectTestRedis();
const prefix = createTestPrefix();

afterAll(async () => {
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
});

const drivers: [string, () => SpendCounters][] = [
  ['in memory', () => new InMemorySpendCounters()],
  ['on Redis', () => new RedisSpendCounters({ redis, prefix: `${prefix}:${Math.random()}` })],
];

describe.each(drivers)('spend counters %s', (_name, create) => {
  it('adds to every subject at once and returns the new totals', async () => {
    const counters = create();
    expect(await counters.add({ subjects: [TEAM_DAY, KEY_DAY], micros: 250, at: DEC_7 })).toEqual([
      250, 250,
    ]);
    expect(
      await counters.add({ subjects: [TEAM_DAY, TEAM_MONTH], micros: 100, at: DEC_7 }),
    ).toEqual([350, 100]);
    expect(await counters.read({ subjects: [TEAM_DAY, KEY_DAY, TEAM_MONTH], at: DEC_7 })).toEqual([
      350, 250, 100,
    ]);
  });

  it('starts a new day from zero and keeps counting the month', async () => {
    const counters = create();
    await counters.add({ subjects: [TEAM_DAY, TEAM_MONTH], micros: 700, at: DEC_7 });
    expect(await counters.read({ subjects: [TEAM_DAY, TEAM_MONTH], at: DEC_8 })).toEqual([0, 700]);
  });

  it('reads 0 for a subject that spent nothing', async () => {
    expect(await create().read({ subjects: [KEY_DAY], at: DEC_7 })).toEqual([0]);
  });
});

describe('RedisSpendCounters', () => {
  it('lets a counter expire after its period ends', async () => {
    const own = `${prefix}:expiry`;
    const counters = new RedisSpendCounters({ redis, prefix: own });
    await counters.add({ subjects: [TEAM_DAY], micros: 1, at: DEC_7 });
    const [key] = await redis.keys(`${own}:spend:*`);
    expect(key).toBe(`${own}:spend:team:team-1:day:2026-12-07`);
    // Expires an hour after the period's end, so it is gone the day after.
    expect(await redis.expiretime(key ?? '')).toBe(DEC_8 / 1000 + 3_600);
  });
});
