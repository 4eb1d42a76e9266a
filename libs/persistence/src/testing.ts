export {
  TEST_POSTGRES_URL,
  createDatabase,
  createMigratedTestDatabase,
  databaseUrl,
  dropDatabase,
  randomDatabaseName,
  type MigratedTestDatabase,
} from './testing/test-database';
