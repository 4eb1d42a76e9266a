import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MCP_OPTIONS } from './mcp-options';
import { McpSessionRegistry, type McpSessionHandle } from './mcp-session.registry';

const IDLE_MS = 10_000;

function newRegistry(): McpSessionRegistry {
  return new McpSessionRegistry({ ...DEFAULT_MCP_OPTIONS, sessionIdleMs: IDLE_MS, maxSessions: 2 });
}

function handle(actor = 'key:a'): McpSessionHandle & { closed: number } {
  const session = {
    actor,
    closed: 0,
    close: () => {
      session.closed += 1;
      return Promise.resolve();
    },
  };
  return session;
}

describe('McpSessionRegistry', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives a session only to the key that opened it', async () => {
    const registry = newRegistry();
    registry.add('s1', handle('key:a'));
    expect(registry.use('s1', 'key:a')).toBeDefined();
    expect(registry.use('s1', 'key:b')).toBeUndefined();
    expect(registry.use('s2', 'key:a')).toBeUndefined();
    await registry.onModuleDestroy();
  });

  it('closes a session idle past sessionIdleMs, and keeps one that is used', async () => {
    const registry = newRegistry();
    const idle = handle();
    const busy = handle();
    registry.add('idle', idle);
    registry.add('busy', busy);
    for (let step = 0; step < 6; step += 1) {
      await vi.advanceTimersByTimeAsync(IDLE_MS / 4);
      registry.use('busy', 'key:a');
    }
    expect(idle.closed).toBe(1);
    expect(registry.use('idle', 'key:a')).toBeUndefined();
    expect(busy.closed).toBe(0);
    expect(registry.size).toBe(1);
    await registry.onModuleDestroy();
    expect(busy.closed).toBe(1);
  });

  it('keeps a session while its GET stream is open, and expires it once the stream closed', async () => {
    const registry = newRegistry();
    const listening = handle();
    registry.add('s', listening);
    const release = registry.holdStream('s');
    await vi.advanceTimersByTimeAsync(IDLE_MS * 3);
    expect(listening.closed).toBe(0);
    release();
    await vi.advanceTimersByTimeAsync(IDLE_MS * 1.5);
    expect(listening.closed).toBe(1);
    expect(registry.size).toBe(0);
  });

  it('says when it holds maxSessions', async () => {
    const registry = newRegistry();
    registry.add('a', handle());
    expect(registry.full).toBe(false);
    registry.add('b', handle());
    expect(registry.full).toBe(true);
    registry.remove('a');
    expect(registry.full).toBe(false);
    await registry.onModuleDestroy();
  });
});
