import { defineProjectTestConfig } from '../../vitest.shared';

// Integration files each copy a migrated template database, so they can run side by side.
export default defineProjectTestConfig(import.meta.dirname, {
  decorators: true,
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 30_000,
});
