import { mergeConfig } from 'vitest/config';
import { defineProjectTestConfig } from '../../vitest.shared';

// tsconfig keeps JSX for Next ("preserve"); the tests compile it with React's automatic runtime.
export default mergeConfig(
  defineProjectTestConfig(import.meta.dirname, {
    include: ['app/**/*.test.ts', 'app/**/*.test.tsx'],
  }),
  { oxc: { jsx: { runtime: 'automatic' } } },
);
