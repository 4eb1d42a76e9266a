import { defineProjectTestConfig } from '../../vitest.shared';

export default defineProjectTestConfig(import.meta.dirname, {
  include: ['app/**/*.test.ts', 'app/**/*.test.tsx'],
});
