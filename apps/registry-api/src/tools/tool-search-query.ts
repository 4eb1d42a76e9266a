import { createHash } from 'node:crypto';

/** At most this many words of a query are searched for; the rest are ignored. */
export const MAX_SEARCH_TERMS = 12;
/** Longer words are cut to this length (no real word or identifier part is longer). */
export const MAX_TERM_LENGTH = 64;
/** Shorter words match whole words only: as prefixes ("id", "to") they would match almost anything. */
export const MIN_PREFIX_LENGTH = 3;

/**
 * A search query as the SQL takes it. User text never reaches `to_tsquery` as typed: it is cut into
 * words of letters, marks and digits only, so the tsquery texts below contain no operator, quote or
 * backslash and cannot fail to parse, whatever was typed.
 */
export interface ToolSearchQuery {
  /** The distinct lower-case words, in query order. */
  terms: string[];
  /** Per term, its `to_tsquery` text: `forec:*` (the term and every word it begins), or a short term as is. */
  prefixes: string[];
  /** Any of the terms: the prefixes joined with `|`, for the candidate scan over the GIN index. */
  anyTerm: string;
  /**
   * The terms compared with the words of names by trigram similarity: those of MIN_PREFIX_LENGTH
   * or more characters (shorter ones share too few trigrams with anything to tell a misspelling),
   * or every term when all are shorter.
   */
  nameTerms: string[];
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
// "getWeather" -> "get Weather", then "HTTPServer" -> "HTTP Server", as toolgate_search_words
// splits names in the index (migration 20261204000000_tool_search).
const LOWER_THEN_UPPER = /(\p{Ll}|\p{N})(\p{Lu})/gu;
const UPPER_THEN_WORD = /(\p{Lu})(\p{Lu}\p{Ll})/gu;

/** The words of a query: split at anything but letters, marks and digits, and at camelCase humps. */
export function searchTermsOf(text: string): string[] {
  const split = text
    .normalize('NFKC')
    .replace(LOWER_THEN_UPPER, '$1 $2')
    .replace(UPPER_THEN_WORD, '$1 $2');
  const terms = new Set<string>();
  for (const [word] of split.toLowerCase().matchAll(WORD)) {
    if (terms.size === MAX_SEARCH_TERMS) break;
    terms.add(word.slice(0, MAX_TERM_LENGTH));
  }
  return [...terms];
}

/** The query for `text`, or null when it has no word to search for (only punctuation, say). */
export function buildToolSearchQuery(text: string): ToolSearchQuery | null {
  const terms = searchTermsOf(text);
  if (terms.length === 0) return null;
  const long = (term: string) => [...term].length >= MIN_PREFIX_LENGTH;
  const prefixes = terms.map((term) => (long(term) ? `${term}:*` : term));
  const nameTerms = terms.some(long) ? terms.filter(long) : terms;
  return { terms, prefixes, anyTerm: prefixes.join(' | '), nameTerms };
}

/** Identifies a query by its words (not its spelling): a cursor of one query is refused by another. */
export function searchQueryKey(query: ToolSearchQuery): string {
  return createHash('sha256').update(query.terms.join(' ')).digest('base64url').slice(0, 16);
}
