import { parseJsonPointer, resolveJsonPointer } from './json-pointer';
import { childSubschemas, type SchemaNode } from './walk-schema';
import { isRecord } from '../json/is-record';

// A base for schemas without a root `$id`: lets relative `$id`s and refs resolve with the standard URL rules.
const DEFAULT_BASE = 'https://toolgate.invalid/schema.json';

function withoutFragment(href: string): string {
  const hash = href.indexOf('#');
  return hash === -1 ? href : href.slice(0, hash);
}

function joinUrl(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

/** Where a local `$ref` leads: the target's tokens from the root and the subschema there. */
export interface RefTarget {
  tokens: string[];
  node: SchemaNode;
}

/** A `$ref` lookup: the target, or why there is none. */
export type RefLookup = { ok: true; target: RefTarget } | { ok: false; message: string };

/**
 * Resolves local `$ref`s of one schema document the way draft 2020-12 does: against the base URI of
 * the enclosing `$id` resource, by JSON Pointer fragment or by `$anchor`. Anything outside the document
 * is reported, never fetched.
 */
export class SchemaIndex {
  readonly #root: Record<string, unknown>;
  readonly #resources = new Map<string, string[]>();
  readonly #anchors = new Map<string, string[]>();

  constructor(root: Record<string, unknown>) {
    this.#root = root;
    this.#index(root, [], DEFAULT_BASE);
  }

  #index(node: SchemaNode, tokens: string[], outerBase: string): void {
    if (!isRecord(node)) return;
    const base = this.#baseOf(node, outerBase);
    if (tokens.length === 0 || typeof node['$id'] === 'string') this.#resources.set(base, tokens);
    if (typeof node['$anchor'] === 'string')
      this.#anchors.set(`${base}#${node['$anchor']}`, tokens);
    for (const child of childSubschemas(node)) {
      const childTokens = [
        ...tokens,
        child.keyword,
        ...(child.key === undefined ? [] : [child.key]),
      ];
      this.#index(child.node, childTokens, base);
    }
  }

  #baseOf(node: Record<string, unknown>, outerBase: string): string {
    const id = node['$id'];
    if (typeof id !== 'string') return outerBase;
    return withoutFragment(joinUrl(id, outerBase) ?? outerBase);
  }

  /** The base URI in force at a location (the nearest enclosing `$id`, else the root's). */
  baseAt(tokens: readonly string[]): string {
    let base = this.#baseOf(this.#root, DEFAULT_BASE);
    let current: unknown = this.#root;
    for (const token of tokens) {
      current = resolveJsonPointer(current, [token]);
      if (isRecord(current) && typeof current['$id'] === 'string')
        base = this.#baseOf(current, base);
    }
    return base;
  }

  /** Looks up a `$ref` found at a location whose base URI is `base`. */
  lookup(reference: string, base: string): RefLookup {
    const quoted = JSON.stringify(reference);
    const href = joinUrl(reference, base);
    if (href === undefined) return { ok: false, message: `cannot resolve $ref ${quoted}` };
    const hash = href.indexOf('#');
    const document = hash === -1 ? href : href.slice(0, hash);
    const resource = this.#resources.get(document);
    if (resource === undefined) {
      return {
        ok: false,
        message: `$ref ${quoted} points outside this schema; only local references are supported`,
      };
    }
    let fragment: string;
    try {
      fragment = hash === -1 ? '' : decodeURIComponent(href.slice(hash + 1));
    } catch {
      return { ok: false, message: `$ref ${quoted} is not a valid URI fragment` };
    }
    const pointer = parseJsonPointer(fragment);
    const tokens =
      pointer === undefined
        ? this.#anchors.get(`${document}#${fragment}`)
        : [...resource, ...pointer];
    const node = tokens === undefined ? undefined : resolveJsonPointer(this.#root, tokens);
    if (tokens === undefined || node === undefined) {
      return { ok: false, message: `$ref ${quoted} does not resolve to anything in this schema` };
    }
    if (typeof node !== 'boolean' && !isRecord(node)) {
      return { ok: false, message: `$ref ${quoted} does not point to a schema` };
    }
    return { ok: true, target: { tokens, node } };
  }
}
