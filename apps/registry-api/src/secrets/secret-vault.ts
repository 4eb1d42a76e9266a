import { Inject, Injectable } from '@nestjs/common';
import { SecretKeyring, SecretStore } from '@toolgate/persistence';
import type { AppConfig } from '../config/app-config';
import type { Database } from '../database/database';
import { APP_CONFIG, DATABASE } from '../database/database.tokens';
import { ToolException } from '../problem/tool.exception';

/**
 * This process's secret key and secret store: the routes seal with it, calls (queued, inline and
 * MCP imports) resolve through the store, whose cache a rotation or deletion here clears.
 */
@Injectable()
export class SecretVault {
  readonly keyring: SecretKeyring | undefined;
  readonly store: SecretStore;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(DATABASE) database: Database) {
    this.keyring = SecretKeyring.fromSettings({
      current: config.TOOLGATE_SECRETS_KEY,
      old: config.TOOLGATE_SECRETS_OLD_KEYS,
    });
    this.store = new SecretStore(database.sql, this.keyring);
  }

  /** The keyring, or the 503 that tells the operator which setting is missing. */
  requireKeyring(): SecretKeyring {
    if (this.keyring !== undefined) return this.keyring;
    throw new ToolException(
      'secrets_unconfigured',
      'The secret store has no key: set TOOLGATE_SECRETS_KEY (base64 of 32 random bytes, e.g. `openssl rand -base64 32`) on the API and the worker, then restart.',
    );
  }
}
