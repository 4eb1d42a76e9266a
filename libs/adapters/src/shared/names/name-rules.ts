/** What a wire accepts as a name (tool, property key, call id); the values are in PROVIDER_LIMITS. */
export interface NameRules {
  /** Characters allowed anywhere in the name. */
  allowed: RegExp;
  /** Characters allowed as the first character. */
  first: RegExp;
  maxLength: number;
}

/** True when `name` already satisfies the rules. */
export function satisfiesRules(name: string, rules: NameRules): boolean {
  const characters = Array.from(name);
  if (characters.length === 0 || name.length > rules.maxLength) return false;
  if (!rules.first.test(characters[0] ?? '')) return false;
  return characters.every((character) => rules.allowed.test(character));
}
