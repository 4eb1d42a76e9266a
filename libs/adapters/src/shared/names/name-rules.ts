import type { Provider } from '../provider';

/** What a provider accepts as a tool (function) name. */
export interface NameRules {
  /** Characters allowed anywhere in the name. */
  allowed: RegExp;
  /** Characters allowed as the first character. */
  first: RegExp;
  maxLength: number;
}

const OPENAI_RULES: NameRules = { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/, maxLength: 64 };

/**
 * Tool name rules per wire (provider-rules §2.5): OpenAI `^[a-zA-Z0-9_-]+$` max 64; Anthropic
 * `^[a-zA-Z0-9_-]{1,128}$`; Gemini starts with a letter or `_`, then `[a-zA-Z0-9_.:-]`, kept to 64
 * because older Gemini protos stop there; MCP SHOULD be `[A-Za-z0-9_.-]{1,128}`.
 */
export const NAME_RULES: Record<Provider, NameRules> = {
  'openai-chat': OPENAI_RULES,
  'openai-responses': OPENAI_RULES,
  anthropic: { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/, maxLength: 128 },
  gemini: { allowed: /[a-zA-Z0-9_.:-]/, first: /[a-zA-Z_]/, maxLength: 64 },
  mcp: { allowed: /[A-Za-z0-9_.-]/, first: /[A-Za-z0-9_.-]/, maxLength: 128 },
};

/**
 * Property name (argument key) rules per wire; `undefined` where any key goes. Anthropic: "Property
 * keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'"; Gemini: `^[A-Za-z_][A-Za-z0-9_]{0,63}$`.
 */
export const PROPERTY_NAME_RULES: Record<Provider, NameRules | undefined> = {
  'openai-chat': undefined,
  'openai-responses': undefined,
  anthropic: { allowed: /[a-zA-Z0-9_.-]/, first: /[a-zA-Z0-9_.-]/, maxLength: 64 },
  gemini: { allowed: /[A-Za-z0-9_]/, first: /[A-Za-z_]/, maxLength: 64 },
  mcp: undefined,
};

/** Call id rules per wire (provider-rules §2.6); `undefined` where any non-empty string goes. */
export const CALL_ID_RULES: Record<Provider, NameRules | undefined> = {
  'openai-chat': undefined,
  'openai-responses': { allowed: /[\s\S]/, first: /[\s\S]/, maxLength: 64 },
  anthropic: { allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z0-9_-]/, maxLength: 256 },
  gemini: undefined,
  mcp: undefined,
};

/** True when `name` already satisfies the rules. */
export function satisfiesRules(name: string, rules: NameRules): boolean {
  const characters = Array.from(name);
  if (characters.length === 0 || name.length > rules.maxLength) return false;
  if (!rules.first.test(characters[0] ?? '')) return false;
  return characters.every((character) => rules.allowed.test(character));
}
