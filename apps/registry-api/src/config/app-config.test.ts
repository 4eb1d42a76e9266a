import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('defaults to the embedded database on port 4000', () => {
    expect(loadConfig({})).toMatchObject({
      PORT: 4000,
      HOST: '127.0.0.1',
      DATABASE_URL: undefined,
      BODY_LIMIT: 1_048_576,
      LOG_LEVEL: 'info',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', TOOLGATE_ADMIN_KEY: ' ' }).DATABASE_URL).toBeUndefined();
  });

  it('lists every invalid variable at once', () => {
    expect(() =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://db',
        TOOLGATE_ADMIN_KEY: 'short',
        LOG_LEVEL: 'loud',
      }),
    ).toThrow(ConfigError);
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://db',
        TOOLGATE_ADMIN_KEY: 'short',
        LOG_LEVEL: 'loud',
      });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'TOOLGATE_ADMIN_KEY', 'LOG_LEVEL'])
        expect(message).toContain(name);
      expect(message).not.toContain('short');
    }
  });

  it('refuses an egress allow-list entry it cannot read, naming it, and keeps a good list', () => {
    expect(() => loadConfig({ TOOLGATE_EGRESS_ALLOW: '10.0.0.0/8, http://oops' })).toThrow(
      /TOOLGATE_EGRESS_ALLOW.*http:\/\/oops/,
    );
    expect(
      loadConfig({ TOOLGATE_EGRESS_ALLOW: '10.0.0.0/8,[::1]:8080' }).TOOLGATE_EGRESS_ALLOW,
    ).toBe('10.0.0.0/8,[::1]:8080');
  });
});
