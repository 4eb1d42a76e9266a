import type { ToolIR } from '../ir/tool-ir';
import { canonicalJson } from '../json/canonical-json';
import { parseJsonPointer, resolveJsonPointer } from '../json-schema/json-pointer';

/**
 * The canonical JSON of the arguments that form a cached tool's key: all of them when the cache
 * names none, else each named one (a top-level name, or a JSON Pointer when it starts with `/`)
 * under its own name. A named argument the call leaves out is absent from the key, which is not
 * the same key as the argument sent as `null`.
 */
export function cacheKeyArguments(
  tool: Pick<ToolIR, 'cache'>,
  args: Record<string, unknown>,
): string {
  const key = tool.cache?.key;
  if (key === undefined) return canonicalJson(args);
  const selected: Record<string, unknown> = {};
  for (const entry of key) {
    const tokens = entry.startsWith('/') ? parseJsonPointer(entry) : [entry];
    const value = tokens === undefined ? undefined : resolveJsonPointer(args, tokens);
    if (value !== undefined) selected[entry] = value;
  }
  return canonicalJson(selected);
}
