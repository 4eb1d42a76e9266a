import { describe, expect, it } from 'vitest';
import {
  buildToolSearchQuery,
  MAX_SEARCH_TERMS,
  MAX_TERM_LENGTH,
  searchQueryKey,
  searchTermsOf,
} from './tool-search-query';

// Everything to_tsquery gives meaning to; none of it may reach the tsquery texts.
const TSQUERY_SYNTAX = /[&|!():*'"\\<>-]/;

function tsqueryTexts(text: string): string[] {
  const query = buildToolSearchQuery(text);
  if (query === null) return [];
  return [...query.prefixes.map((prefix) => prefix.replace(/:\*$/, '')), query.anyTerm];
}

describe('searchTermsOf', () => {
  it('splits at punctuation and spaces, lower-cased, each word once', () => {
    expect(searchTermsOf('Weather forecast for a city, weather!')).toEqual([
      'weather',
      'forecast',
      'for',
      'a',
      'city',
    ]);
  });

  it('splits identifiers: dotted names, snake_case and camelCase', () => {
    expect(searchTermsOf('weather.forecast')).toEqual(['weather', 'forecast']);
    expect(searchTermsOf('tracking_number')).toEqual(['tracking', 'number']);
    expect(searchTermsOf('getWeather HTTPServer')).toEqual(['get', 'weather', 'http', 'server']);
    expect(searchTermsOf('v2Api')).toEqual(['v2', 'api']);
  });

  it('keeps letters and digits of every script', () => {
    expect(searchTermsOf('Café 東京 2024 Ωmega')).toEqual(['café', '東京', '2024', 'ωmega']);
    // NFKC: a full-width or ligature spelling searches as the plain one.
    expect(searchTermsOf('ｗｅａｔｈｅｒ ﬁle')).toEqual(['weather', 'file']);
  });

  it('bounds the number and length of words', () => {
    const many = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
    expect(searchTermsOf(many)).toHaveLength(MAX_SEARCH_TERMS);
    expect(searchTermsOf('x'.repeat(500))).toEqual(['x'.repeat(MAX_TERM_LENGTH)]);
  });

  it('finds no words in punctuation, symbols and emoji', () => {
    expect(searchTermsOf("!!! && || :* '' \\ <-> 🔥 ()")).toEqual([]);
    expect(searchTermsOf('   ')).toEqual([]);
  });
});

describe('buildToolSearchQuery', () => {
  it('matches each word and the words it begins; short words only as themselves', () => {
    expect(buildToolSearchQuery('weather forec in NY')).toEqual({
      terms: ['weather', 'forec', 'in', 'ny'],
      prefixes: ['weather:*', 'forec:*', 'in', 'ny'],
      anyTerm: 'weather:* | forec:* | in | ny',
      nameTerms: ['weather', 'forec'],
    });
  });

  it('compares only words of three or more letters with names, unless all are shorter', () => {
    expect(buildToolSearchQuery('a wether map')?.nameTerms).toEqual(['wether', 'map']);
    expect(buildToolSearchQuery('it ny')?.nameTerms).toEqual(['it', 'ny']);
  });

  it('is null when there is nothing to search for', () => {
    expect(buildToolSearchQuery('?!')).toBeNull();
  });

  it.each([
    'weather & !forecast',
    'o\'brien\'s "quoted" text',
    'a:* | b:* & (c <-> d)',
    'back\\slash \\\\',
    "'; DROP TABLE tools; --",
    'weather:A forecast:*B',
    '\u0000nul\u0000',
    '\u2018smart quotes\u2019 \u00ABguillemets\u00BB',
    'emoji 🔥🌧️ and ‼ ⁉',
  ])('never passes tsquery syntax through: %s', (text) => {
    for (const part of tsqueryTexts(text)) {
      const withoutOperators = part.replace(/ \| /g, ' ').replace(/:\*/g, '');
      expect(withoutOperators).not.toMatch(TSQUERY_SYNTAX);
    }
  });
});

describe('searchQueryKey', () => {
  it('is the same for the same words, whatever the spelling around them', () => {
    const key = (text: string) => searchQueryKey(buildToolSearchQuery(text)!);
    expect(key('Weather, forecast!')).toBe(key('weather forecast'));
    expect(key('weather forecast')).not.toBe(key('forecast weather'));
    expect(key('weather')).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });
});
