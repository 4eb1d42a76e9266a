import { SEARCH_TOOL_NAME } from '@toolgate/contract';
import { z } from 'zod';
import type { Scope } from '../auth/principal';

/** What each MCP method needs; the same scopes as the REST routes that do the same thing. */
const SCOPE_BY_METHOD = new Map<string, Scope>([
  ['tools/list', 'tools:read'],
  ['tools/call', 'calls:execute'],
]);

const MessageSchema = z.looseObject({
  method: z.string(),
  params: z.looseObject({ name: z.unknown().optional() }).optional().catch(undefined),
});

/**
 * The scopes a POST to the MCP endpoint needs, read from its JSON-RPC message (or batch) before
 * any of it runs, so a key that lacks one gets an HTTP 403 instead of a half-executed batch.
 * Messages without a method (responses) or with methods needing no scope (initialize, ping,
 * notifications) add nothing; malformed messages are left to the transport to answer.
 */
export function scopesForMessages(body: unknown): Scope[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const scopes = new Set<Scope>();
  for (const message of messages) {
    const parsed = MessageSchema.safeParse(message);
    const scope = parsed.success ? SCOPE_BY_METHOD.get(parsed.data.method) : undefined;
    if (scope !== undefined) scopes.add(scope);
    // The search tool reads the catalog, as tools/list does.
    if (
      parsed.success &&
      parsed.data.method === 'tools/call' &&
      parsed.data.params?.name === SEARCH_TOOL_NAME
    ) {
      scopes.add('tools:read');
    }
  }
  return [...scopes];
}
