import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script run by its SHA1 (EVALSHA), loaded on first use or after a Redis restart (NOSCRIPT). */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script atomically with these keys and arguments. */
  async run(
    redis: Redis,
    input: { keys: readonly string[]; args: readonly (string | number)[] },
  ): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, input.keys.length, ...input.keys, ...input.args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
      return redis.eval(this.source, input.keys.length, ...input.keys, ...input.args);
    }
  }
}
