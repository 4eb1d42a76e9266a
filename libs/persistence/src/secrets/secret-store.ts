import { ToolExecutionError, type SecretResolver } from '@toolgate/engine';
import { sql, type SqlPort } from '../sql/sql-port';
import { SecretSealError, type SealedValue, type SecretKeyring } from './secret-cipher';

interface SealedRow extends Record<string, unknown> {
  id: string;
  team_id: string;
  name: string;
  key_id: string;
  nonce: string;
  ciphertext: string;
  auth_tag: string;
}

const SEALED_COLUMNS = 'id, team_id, name, key_id, nonce, ciphertext, auth_tag';

const FIND = sql(
  'secrets.find',
  `SELECT ${SEALED_COLUMNS} FROM secrets WHERE team_id = $1 AND name = $2`,
);

// The condition keeps it to one write a minute per secret however many processes resolve it.
const TOUCH = sql(
  'secrets.touch',
  `UPDATE secrets SET last_used_at = $3
    WHERE team_id = $1 AND name = $2
      AND (last_used_at IS NULL OR last_used_at < $3::timestamptz - interval '1 minute')`,
);

const PAGE = sql(
  'secrets.page',
  `SELECT ${SEALED_COLUMNS} FROM secrets WHERE id > $1 ORDER BY id LIMIT $2`,
);

// Compare-and-set on the old key id: a value rotated meanwhile is left as its rotation wrote it.
const RESEAL = sql(
  'secrets.reseal',
  `UPDATE secrets SET key_id = $3, nonce = $4, ciphertext = $5, auth_tag = $6
    WHERE id = $1 AND key_id = $2 AND nonce = $7`,
);

function sealedOf(row: SealedRow): SealedValue {
  return { keyId: row.key_id, nonce: row.nonce, ciphertext: row.ciphertext, authTag: row.auth_tag };
}

/** How long a resolved value is kept in memory, and how long "no such secret" is. */
export const SECRET_CACHE_TTL_MS = 30_000;
const MISSING_CACHE_TTL_MS = 5_000;
const TOUCH_INTERVAL_MS = 60_000;

interface CachedSecret {
  value: string | undefined;
  expiresAt: number;
}

/** What the re-encryption pass did. */
export interface ResealReport {
  total: number;
  resealed: number;
  /** Already under the current key. */
  current: number;
  /** Rotated or deleted while the pass ran; left as they are. */
  skipped: number;
}

/**
 * The `secrets` table at call time, the same in the API and the worker: resolvers per team (a team
 * resolves only its own names), values cached briefly in memory, `last_used_at` written at most once
 * a minute per secret. Values live only in this cache and in the executors' requests; nothing here
 * logs or returns them elsewhere.
 */
export class SecretStore {
  private readonly cache = new Map<string, CachedSecret>();
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly db: SqlPort,
    private readonly keyring: SecretKeyring | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** A resolver over one team's secrets. */
  forTeam(teamId: string): SecretResolver {
    return { resolve: (name) => this.resolve(teamId, name) };
  }

  /** Drops a cached value; rotations and deletions in this process call it. */
  forget(teamId: string, name: string): void {
    this.cache.delete(cacheKey(teamId, name));
  }

  private async resolve(teamId: string, name: string): Promise<string | undefined> {
    // Without a key nothing can be opened: such calls fail with secret_unavailable, as before.
    if (this.keyring === undefined) return undefined;
    const key = cacheKey(teamId, name);
    const now = this.now();
    const cached = this.cache.get(key);
    let value: string | undefined;
    if (cached !== undefined && cached.expiresAt > now) value = cached.value;
    else {
      value = await this.load(teamId, name);
      const ttl = value === undefined ? MISSING_CACHE_TTL_MS : SECRET_CACHE_TTL_MS;
      this.cache.set(key, { value, expiresAt: now + ttl });
    }
    if (value !== undefined) this.touch(teamId, name, now);
    return value;
  }

  private async load(teamId: string, name: string): Promise<string | undefined> {
    const { rows } = await this.db.query<SealedRow>(FIND, [teamId, name]);
    const row = rows[0];
    if (row === undefined || this.keyring === undefined) return undefined;
    try {
      return this.keyring.open(sealedOf(row), { teamId, name });
    } catch (error) {
      if (error instanceof SecretSealError)
        throw new ToolExecutionError({ code: 'secret_unavailable', message: error.message });
      throw error;
    }
  }

  private touch(teamId: string, name: string, now: number): void {
    const key = cacheKey(teamId, name);
    const last = this.touchedAt.get(key);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
    this.touchedAt.set(key, now);
    // Bookkeeping only: a failed write must not fail the call.
    this.db.query(TOUCH, [teamId, name, new Date(now).toISOString()]).catch(() => undefined);
  }

  /**
   * Re-encrypts every value not under the current key, page by page; `progress` is told after each
   * page. A value whose key is not in the keyring stops the pass there (SecretSealError); the values
   * before it stay re-encrypted, so running it again with the key added continues.
   */
  async resealAll(progress: (report: ResealReport) => void, pageSize = 100): Promise<ResealReport> {
    const keyring = this.keyring;
    if (keyring === undefined) throw new Error('TOOLGATE_SECRETS_KEY is not set');
    const report: ResealReport = { total: 0, resealed: 0, current: 0, skipped: 0 };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await this.db.query<SealedRow>(PAGE, [after, pageSize]);
      if (rows.length === 0) break;
      for (const row of rows) {
        report.total += 1;
        after = row.id;
        if (row.key_id === keyring.currentKeyId) {
          report.current += 1;
          continue;
        }
        const binding = { teamId: row.team_id, name: row.name };
        const sealed = keyring.seal(keyring.open(sealedOf(row), binding), binding);
        const { rowCount } = await this.db.query(RESEAL, [
          row.id,
          row.key_id,
          sealed.keyId,
          sealed.nonce,
          sealed.ciphertext,
          sealed.authTag,
          row.nonce,
        ]);
        if (rowCount === 1) report.resealed += 1;
        else report.skipped += 1;
        this.forget(row.team_id, row.name);
      }
      progress({ ...report });
    }
    return report;
  }
}

function cacheKey(teamId: string, name: string): string {
  return `${teamId}\u0000${name}`;
}
