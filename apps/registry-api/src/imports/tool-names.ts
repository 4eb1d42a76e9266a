// Every provider accepts `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's rule is the strictest), so imported names
// need no mangling on any wire.
const MAX_NAME_LENGTH = 64;

/** A tool name from free text (an operationId, `get_/pets/{id}`, an upstream MCP name) that every wire accepts. */
export function sanitizeToolName(text: string): string {
  const name = text
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, MAX_NAME_LENGTH);
  return name === '' ? 'tool' : name;
}

/** `base`, or `base_2`, `base_3`… when taken; the suffix replaces the tail when the name is at its limit. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let index = 2; ; index += 1) {
    const suffix = `_${index}`;
    const candidate = `${base.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
