import { describe, expect, it } from 'vitest';
import { DEFAULT_MCP_OPTIONS, loadMcpOptions, McpConfigError } from './mcp-options';

describe('loadMcpOptions', () => {
  it('takes MCP_* variables over the defaults, blank ones as unset', () => {
    expect(loadMcpOptions({})).toEqual(DEFAULT_MCP_OPTIONS);
    expect(
      loadMcpOptions({
        MCP_SESSION_IDLE_MS: '60000',
        MCP_APPROVAL_WAIT_MS: '5000',
        MCP_MAX_SESSIONS: ' ',
      }),
    ).toEqual({ ...DEFAULT_MCP_OPTIONS, sessionIdleMs: 60_000, approvalWaitMs: 5_000 });
  });

  it('refuses values out of range, naming each', () => {
    expect(() =>
      loadMcpOptions({ MCP_SESSION_IDLE_MS: '10', MCP_APPROVAL_WAIT_MS: '999999999' }),
    ).toThrow(McpConfigError);
    expect(() => loadMcpOptions({ MCP_APPROVAL_WAIT_MS: 'soon' })).toThrow(/MCP_APPROVAL_WAIT_MS/);
  });
});
