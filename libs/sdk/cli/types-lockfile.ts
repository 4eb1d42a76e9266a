import { createHash } from 'node:crypto';
import { canonicalJson, type ToolIR } from '@toolgate/toolir';
import { z } from 'zod';

/** The lockfile's format version; a lockfile of another one is refused, never guessed at. */
export const TYPES_LOCKFILE_VERSION = 1;

/** One pinned tool as `toolgate types` resolved it. */
export const LockedToolSchema = z.strictObject({
  /** The pin as given (`^2.1`): a changed pin resolves again. */
  pin: z.string().min(1),
  /** The exact version the pin resolved to. */
  version: z.string().min(1),
  tool_id: z.uuid(),
  /** `sha256-<base64>` of the version's canonical ToolIR: a version changed under the same number is refused. */
  integrity: z.string().regex(/^sha256-[A-Za-z0-9+/]+=*$/),
});
export type LockedTool = z.infer<typeof LockedToolSchema>;

/** `toolgate-types.lock.json`: the exact versions the generated types were made from, by tool name. */
export const TypesLockfileSchema = z.strictObject({
  lockfileVersion: z.literal(TYPES_LOCKFILE_VERSION),
  tools: z.record(z.string(), LockedToolSchema),
});
export type TypesLockfile = z.infer<typeof TypesLockfileSchema>;

/** The integrity of a ToolIR: its canonical JSON hashed, so key order never matters. */
export function integrityOf(tool: ToolIR): string {
  return `sha256-${createHash('sha256').update(canonicalJson(tool)).digest('base64')}`;
}

/** The lockfile's text: names sorted, two-space JSON and a final newline, so equal locks are equal bytes. */
export function formatLockfile(lockfile: TypesLockfile): string {
  const tools = Object.fromEntries(
    Object.keys(lockfile.tools)
      .sort()
      .map((name) => [name, lockfile.tools[name]]),
  );
  return `${JSON.stringify({ lockfileVersion: lockfile.lockfileVersion, tools }, null, 2)}\n`;
}
