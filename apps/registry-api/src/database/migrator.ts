// The migrator lives in @toolgate/persistence so the worker's tests apply the same migrations.
export {
  DEFAULT_MIGRATIONS_DIR,
  MigrationError,
  migrate,
  readMigrations,
  sha256Hex,
  type Migration,
  type MigrationResult,
} from '@toolgate/persistence';
