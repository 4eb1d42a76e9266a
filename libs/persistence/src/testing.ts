export {
  TEST_POSTGRES_URL,
  createDatabase,
  createMigratedTestDatabase,
  databaseUrl,
  dropDatabase,
  randomDatabaseName,
  type MigratedTestDatabase,
} from './testing/test-database';
export {
  TEST_REDIS_URL,
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
} from './testing/redis-test-prefix';
export { createTestRedisServer, freePort, type TestRedisServer } from './testing/redis-server';
export {
  describeCallRepositoryContract,
  type SeedableCallRepository,
} from './testing/call-repository.contract';
export { TEST_CALLER, buildCall, buildTool, type TestToolInput } from './testing/tool.factory';
