export {
  TEST_POSTGRES_URL,
  createMigratedTestDatabase,
  type MigratedTestDatabase,
} from './testing/test-database';
