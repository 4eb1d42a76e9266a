import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { APP_CONFIG_KEYS, AppConfigSchema } from './app-config';

const COMPOSE_PATH = path.resolve(import.meta.dirname, '../../../../docker-compose.yml');

const ServiceSchema = z.looseObject({
  environment: z.record(z.string(), z.string()).optional(),
  ports: z.array(z.string()).optional(),
  healthcheck: z.looseObject({ test: z.array(z.string()) }).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  volumes: z.array(z.string()).optional(),
});
const ComposeSchema = z.looseObject({
  services: z.record(z.string(), ServiceSchema),
  volumes: z.record(z.string(), z.unknown()),
});

// Shell-style defaults in compose files: `${NAME:-default}` and `${NAME:?message}`.
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(
    /\$\{(\w+)(?::([-?])([^}]*))?\}/g,
    (_match, name: string, kind?: string, fallback?: string) => {
      const set = env[name];
      if (set !== undefined && set !== '') return set;
      if (kind === '-') return fallback ?? '';
      throw new Error(`compose requires ${name}: ${fallback ?? ''}`);
    },
  );
}

const compose = ComposeSchema.parse(parse(readFileSync(COMPOSE_PATH, 'utf8'), { merge: true }));

describe('docker-compose.yml', () => {
  it('has the five services, each long-running one with a healthcheck or a health dependency', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'registry-api', 'worker', 'console']),
    );
    for (const name of ['postgres', 'redis', 'registry-api', 'console']) {
      expect(compose.services[name]?.healthcheck?.test.length, name).toBeGreaterThan(0);
    }
    expect(compose.services['registry-api']?.depends_on).toMatchObject({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(compose.services['postgres']?.volumes).toEqual(
      expect.arrayContaining([expect.stringMatching(/^postgres-data:/)]),
    );
  });

  it('sets only registry-api variables the config schema knows, and they parse', () => {
    const environment = compose.services['registry-api']?.environment ?? {};
    const unknown = Object.keys(environment).filter(
      (name) =>
        !(APP_CONFIG_KEYS as readonly string[]).includes(name) && name !== 'TSX_TSCONFIG_PATH',
    );
    expect(unknown).toEqual([]);
    const env = Object.fromEntries(
      Object.entries(environment).map(([name, value]) => [
        name,
        interpolate(value, { TOOLGATE_ADMIN_KEY: 'k'.repeat(40) }),
      ]),
    );
    const config = AppConfigSchema.parse(env);
    expect(config.DATABASE_URL).toMatch(/^postgresql:\/\/toolgate:.+@postgres:5432\/toolgate$/);
    expect(config.REDIS_URL).toBe('redis://redis:6379');
    expect(config.HOST).toBe('0.0.0.0');
    // The published port is the one the API listens on.
    const [published] = compose.services['registry-api']?.ports ?? [];
    expect(published && interpolate(published, {})).toBe(`4000:${config.PORT}`);
    expect(compose.services['registry-api']?.healthcheck?.test.join(' ')).toContain(
      `:${config.PORT}/readyz`,
    );
  });

  it('refuses to start without an admin key', () => {
    const value = compose.services['registry-api']?.environment?.['TOOLGATE_ADMIN_KEY'] ?? '';
    expect(() => interpolate(value, {})).toThrow(/TOOLGATE_ADMIN_KEY/);
  });
});
