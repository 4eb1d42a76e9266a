import { describe, expect, it } from 'vitest';
import { loadWorkerConfig, WorkerConfigError } from './worker.config';

describe('loadWorkerConfig', () => {
  it('defaults to the in-process queue with sensible limits', () => {
    const config = loadWorkerConfig({});
    expect(config).toMatchObject({
      REDIS_URL: undefined,
      WORKER_CONCURRENCY: 8,
      LOG_LEVEL: 'info',
      DRAIN_TIMEOUT_MS: 30_000,
      QUEUE_PREFIX: 'toolgate',
      WORKER_LOCK_DURATION_MS: 30_000,
      WORKER_STALLED_INTERVAL_MS: 15_000,
      WORKER_MAX_STALLED_COUNT: 2,
    });
    expect(config.WORKER_ID).toMatch(/-\d+$/);
  });

  it('reads numbers from strings and treats empty variables as unset', () => {
    const config = loadWorkerConfig({
      WORKER_CONCURRENCY: '3',
      REDIS_URL: ' ',
      WORKER_ID: 'w1',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
    });
    expect(config).toMatchObject({
      WORKER_CONCURRENCY: 3,
      REDIS_URL: undefined,
      WORKER_ID: 'w1',
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    });
  });

  it('ignores variables it does not own and reads the shared Postgres URL', () => {
    expect(
      loadWorkerConfig({
        DATABASE_URL: 'postgresql://postgres@db:5432/toolgate',
        TOOLGATE_REGISTRY_URL: 'http://api',
      }).DATABASE_URL,
    ).toBe('postgresql://postgres@db:5432/toolgate');
    expect(() => loadWorkerConfig({ DATABASE_URL: 'mysql://db/x' })).toThrow(WorkerConfigError);
  });

  it("reads the API's secret key settings and refuses a malformed key without echoing it", () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(
      loadWorkerConfig({ TOOLGATE_SECRETS_KEY: `k2:${key}`, TOOLGATE_SECRETS_OLD_KEYS: '' }),
    ).toMatchObject({ TOOLGATE_SECRETS_KEY: `k2:${key}`, TOOLGATE_SECRETS_OLD_KEYS: undefined });
    const short = Buffer.alloc(8, 7).toString('base64');
    expect(() => loadWorkerConfig({ TOOLGATE_SECRETS_KEY: short })).toThrow(
      /TOOLGATE_SECRETS_KEY.*32 bytes/,
    );
    expect(() => loadWorkerConfig({ TOOLGATE_SECRETS_OLD_KEYS: `old:${short}` })).toThrow(
      WorkerConfigError,
    );
    try {
      loadWorkerConfig({ TOOLGATE_SECRETS_KEY: short });
    } catch (error) {
      expect((error as Error).message).not.toContain(short);
    }
  });

  it('lists every invalid variable at once, without its value', () => {
    const env = {
      REDIS_URL: 'http://secret-host',
      WORKER_CONCURRENCY: '0',
      LOG_LEVEL: 'loud',
      QUEUE_PREFIX: 'a:b',
    };
    expect(() => loadWorkerConfig(env)).toThrow(WorkerConfigError);
    try {
      loadWorkerConfig(env);
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['REDIS_URL', 'WORKER_CONCURRENCY', 'LOG_LEVEL', 'QUEUE_PREFIX'])
        expect(message).toContain(name);
      expect(message).not.toContain('secret-host');
    }
  });
});
