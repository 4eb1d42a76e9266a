import { defineProjectTestConfig } from '../../vitest.shared';

// Integration tests spawn worker processes with short lock durations: run files one at a time so
// a busy machine does not starve a worker into a spurious stall.
export default defineProjectTestConfig(import.meta.dirname, { decorators: true, serial: true });
