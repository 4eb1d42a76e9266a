import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../src/migrations/migrator';
import { SecretKeyring } from '../../src/secrets/secret-cipher';
import { SecretStore } from '../../src/secrets/secret-store';
import { pglitePort } from '../../src/sql/sql-port';

const KEY_A = `a:${Buffer.alloc(32, 1).toString('base64')}`;
const KEY_B = `b:${Buffer.alloc(32, 2).toString('base64')}`;
let db: PGlite;
const teamA = randomUUID();
const teamB = randomUUID();

function keyring(current: string, old?: string): SecretKeyring {
  const ring = SecretKeyring.fromSettings({ current, old });
  if (ring === undefined) throw new Error('no keyring');
  return ring;
}

async function insert(ring: SecretKeyring, teamId: string, name: string, value: string) {
  const sealed = ring.seal(value, { teamId, name });
  await db.query(
    `INSERT INTO secrets (id, team_id, name, key_id, nonce, ciphertext, auth_tag, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'test')`,
    [randomUUID(), teamId, name, sealed.keyId, sealed.nonce, sealed.ciphertext, sealed.authTag],
  );
}

beforeAll(async () => {
  db = await PGlite.create({ extensions: { pg_trgm } });
  await migrate(
    {
      query: async (text, params = []) => (await db.query<never>(text, [...params])).rows,
      exec: async (script) => {
        await db.exec(script);
      },
    },
    await readMigrations(),
  );
  for (const id of [teamA, teamB])
    await db.query(`INSERT INTO teams (id, slug, name) VALUES ($1, $2, $2)`, [id, id]);
  await insert(keyring(KEY_A), teamA, 'ORDERS_API_KEY', 'value-of-a');
  await insert(keyring(KEY_A), teamB, 'OTHER_KEY', 'value-of-b');
}, 60_000);

afterAll(async () => {
  await db.close();
});

describe('SecretStore', () => {
  it('resolves a team its own secrets only', async () => {
    const store = new SecretStore(pglitePort(db), keyring(KEY_A));
    await expect(store.forTeam(teamA).resolve('ORDERS_API_KEY')).resolves.toBe('value-of-a');
    await expect(store.forTeam(teamA).resolve('OTHER_KEY')).resolves.toBeUndefined();
    await expect(store.forTeam(teamB).resolve('ORDERS_API_KEY')).resolves.toBeUndefined();
  });

  it('caches a value until it expires or is forgotten, and touches last_used_at once a minute', async () => {
    let now = Date.parse('2030-01-01T10:00:00Z');
    const store = new SecretStore(pglitePort(db), keyring(KEY_A), () => now);
    const resolver = store.forTeam(teamA);
    await expect(resolver.resolve('ORDERS_API_KEY')).resolves.toBe('value-of-a');
    const lastUsed = async () =>
      (
        await db.query<{ last_used_at: Date | null }>(
          `SELECT last_used_at FROM secrets WHERE team_id = $1 AND name = 'ORDERS_API_KEY'`,
          [teamA],
        )
      ).rows[0]?.last_used_at?.toISOString();
    await expect.poll(lastUsed).toBe('2030-01-01T10:00:00.000Z');
    await db.query(`UPDATE secrets SET nonce = 'AAAAAAAAAAAAAAAA' WHERE team_id = $1`, [teamA]);
    now += 10_000;
    // Cached: the altered row is not read again, and no second touch is written within the minute.
    await expect(resolver.resolve('ORDERS_API_KEY')).resolves.toBe('value-of-a');
    expect(await lastUsed()).toBe('2030-01-01T10:00:00.000Z');
    store.forget(teamA, 'ORDERS_API_KEY');
    await expect(resolver.resolve('ORDERS_API_KEY')).rejects.toMatchObject({
      signal: { code: 'secret_unavailable', message: expect.stringMatching(/integrity/) },
    });
    await db.query(`DELETE FROM secrets WHERE team_id = $1`, [teamA]);
    await insert(keyring(KEY_A), teamA, 'ORDERS_API_KEY', 'value-of-a');
  });

  it('resolves nothing without a key', async () => {
    const store = new SecretStore(pglitePort(db), undefined);
    await expect(store.forTeam(teamA).resolve('ORDERS_API_KEY')).resolves.toBeUndefined();
  });

  it('re-encrypts every value under the current key, reporting progress', async () => {
    const reports: number[] = [];
    const rotated = new SecretStore(pglitePort(db), keyring(KEY_B, KEY_A));
    const report = await rotated.resealAll((progress) => reports.push(progress.total), 1);
    expect(report).toEqual({ total: 2, resealed: 2, current: 0, skipped: 0 });
    expect(reports).toEqual([1, 2]);
    const keys = await db.query<{ key_id: string }>(`SELECT DISTINCT key_id FROM secrets`);
    expect(keys.rows).toEqual([{ key_id: 'b' }]);
    // Only the new key is needed now; a second pass finds nothing to do.
    const onlyNew = new SecretStore(pglitePort(db), keyring(KEY_B));
    await expect(onlyNew.forTeam(teamA).resolve('ORDERS_API_KEY')).resolves.toBe('value-of-a');
    await expect(onlyNew.resealAll(() => undefined)).resolves.toMatchObject({ current: 2 });
  });
});
