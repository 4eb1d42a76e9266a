import { defineProjectTestConfig } from '../../../vitest.shared';

// The end-to-end run builds and starts the whole stack, so it gets minutes, not seconds.
export default defineProjectTestConfig(import.meta.dirname, {
  include: ['**/*.e2e.test.ts'],
  serial: true,
  testTimeout: 300_000,
});
