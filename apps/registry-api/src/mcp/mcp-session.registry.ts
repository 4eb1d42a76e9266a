import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { MCP_OPTIONS, type McpOptions } from './mcp-options';

/** What the registry needs of a session: who owns it and how to end it. */
export interface McpSessionHandle {
  /** The audit actor of the key that opened the session; only that key may use it. */
  actor: string;
  /** Closes the transport and the server and drops the session's subscriptions; idempotent. */
  close(): Promise<void>;
}

interface SessionEntry {
  handle: McpSessionHandle;
  lastSeenAt: number;
  openStreams: number;
}

/**
 * The stateful MCP sessions of this replica (Streamable HTTP with `Mcp-Session-Id`). A session
 * lives in memory where it was initialized, so a deployment with several replicas needs sticky
 * routing on that header for session clients; stateless clients can still go anywhere. A session
 * with no request and no open GET stream for `sessionIdleMs` is closed, as on DELETE.
 */
@Injectable()
export class McpSessionRegistry implements OnModuleDestroy {
  private readonly logger = new Logger(McpSessionRegistry.name);
  private readonly sessions = new Map<string, SessionEntry>();
  private timer: NodeJS.Timeout | undefined;

  constructor(@Inject(MCP_OPTIONS) private readonly options: McpOptions) {}

  get size(): number {
    return this.sessions.size;
  }

  get full(): boolean {
    return this.sessions.size >= this.options.maxSessions;
  }

  add(id: string, handle: McpSessionHandle): void {
    this.sessions.set(id, { handle, lastSeenAt: Date.now(), openStreams: 0 });
    if (this.timer === undefined) {
      // Sweeping a few times per idle period keeps a session at most ~1.25 idle periods.
      const every = Math.max(250, Math.floor(this.options.sessionIdleMs / 4));
      this.timer = setInterval(() => void this.sweep(), every);
      this.timer.unref();
    }
  }

  /** The session if `actor` owns it; another key's session id is as unknown as a made-up one. */
  use(id: string, actor: string): McpSessionHandle | undefined {
    const entry = this.sessions.get(id);
    if (entry === undefined || entry.handle.actor !== actor) return undefined;
    entry.lastSeenAt = Date.now();
    return entry.handle;
  }

  /** Marks a GET stream open until the returned function runs; an open stream keeps the session. */
  holdStream(id: string): () => void {
    const entry = this.sessions.get(id);
    if (entry === undefined) return () => undefined;
    entry.openStreams += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      entry.openStreams -= 1;
      entry.lastSeenAt = Date.now();
    };
  }

  /** Forgets a session that closed itself (DELETE, transport closed); does not close it. */
  remove(id: string): void {
    this.sessions.delete(id);
    if (this.sessions.size === 0) this.stopTimer();
  }

  /** Closes every session idle for longer than `sessionIdleMs`; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = Date.now() - this.options.sessionIdleMs;
    const idle = [...this.sessions].filter(
      ([, entry]) => entry.openStreams === 0 && entry.lastSeenAt < cutoff,
    );
    for (const [id] of idle) this.remove(id);
    await Promise.all(idle.map(([id, entry]) => this.closeQuietly(id, entry.handle)));
    return idle.length;
  }

  async onModuleDestroy(): Promise<void> {
    const all = [...this.sessions];
    this.sessions.clear();
    this.stopTimer();
    await Promise.all(all.map(([id, entry]) => this.closeQuietly(id, entry.handle)));
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async closeQuietly(id: string, handle: McpSessionHandle): Promise<void> {
    try {
      await handle.close();
    } catch (error) {
      this.logger.warn(`closing MCP session ${id} failed: ${String(error)}`);
    }
  }
}
