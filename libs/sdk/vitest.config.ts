import { defineProjectTestConfig } from '../../vitest.shared';

export default defineProjectTestConfig(import.meta.dirname, {
  include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'cli/**/*.test.ts'],
});
