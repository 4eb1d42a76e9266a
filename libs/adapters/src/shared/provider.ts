/** Every wire format Toolgate speaks. */
export const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'mcp'] as const;

/** A wire format: a provider's API dialect of tool calling. */
export type Provider = (typeof PROVIDERS)[number];

/** Narrows an untrusted string to a Provider. */
export function isProvider(value: unknown): value is Provider {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value);
}
