import { defineProjectTestConfig } from '../../vitest.shared';

export default defineProjectTestConfig(import.meta.dirname);
