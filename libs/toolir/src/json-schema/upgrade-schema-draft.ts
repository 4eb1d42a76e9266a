import { isRecord } from '../json/is-record';
import { setOwnProperty } from '../json/set-own-property';
import { formatJsonPointer, formatPointerFragment, parseJsonPointer } from './json-pointer';
import { mapSchema, SINGLE_SUBSCHEMA_KEYWORDS, walkSchema, type SchemaNode } from './walk-schema';

/** One keyword of an older draft (04, 06, 07, 2019-09) rewritten as draft 2020-12 spells it. */
export interface SchemaDraftRewrite {
  /** JSON Pointer of the subschema in the original schema; `/` for the root. */
  path: string;
  /** The keyword as the original schema wrote it. */
  keyword: string;
  /** What became of it, e.g. `became "prefixItems"`. */
  message: string;
}

/** A schema in draft 2020-12 and every rewrite that got it there (empty when it already was). */
export interface UpgradedSchema<TSchema> {
  schema: TSchema;
  rewrites: SchemaDraftRewrite[];
}

const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
// RFC 3986 fragment-free plain names as 2020-12's `$anchor` allows them.
const ANCHOR_NAME = /^[A-Za-z_][-A-Za-z0-9._]*$/;

/** Whether a `$schema` value declares a dialect other than draft 2020-12. */
export function declaresOlderDraft(dialect: unknown): boolean {
  return typeof dialect === 'string' && !DRAFT_2020_12.test(dialect);
}

/**
 * Where a keyword of an older-draft schema object lives in 2020-12 (for `dependencies`, where its
 * entry `key` goes). The one rule both the rewrite and the `$ref` fix-up read, so they agree.
 */
function keywordIn2020(node: Record<string, unknown>, keyword: string, key?: string): string {
  switch (keyword) {
    case 'definitions':
      return definitionsMerge(node) === undefined ? 'definitions' : '$defs';
    case 'items':
      return Array.isArray(node['items']) ? 'prefixItems' : 'items';
    case 'additionalItems':
      return Array.isArray(node['items']) ? 'items' : 'additionalItems';
    case 'dependencies': {
      const entries = node['dependencies'];
      const entry = isRecord(entries) && key !== undefined ? entries[key] : undefined;
      return Array.isArray(entry) ? 'dependentRequired' : 'dependentSchemas';
    }
    default:
      return keyword;
  }
}

/** `definitions` merged into `$defs`, or undefined when a name is in both (then both stay). */
function definitionsMerge(node: Record<string, unknown>): Record<string, unknown> | undefined {
  const definitions = node['definitions'];
  if (!isRecord(definitions)) return undefined;
  const defs = isRecord(node['$defs']) ? node['$defs'] : {};
  if (Object.keys(definitions).some((name) => Object.hasOwn(defs, name))) return undefined;
  const merged: Record<string, unknown> = {};
  for (const [name, value] of [...Object.entries(defs), ...Object.entries(definitions)])
    setOwnProperty(merged, name, value);
  return merged;
}

/** A draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum`: the 2020-12 number, or undefined to drop it. */
function exclusiveBound(node: Record<string, unknown>, keyword: string): number | undefined {
  const bound = node[keyword === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
  return node[keyword] === true && typeof bound === 'number' ? bound : undefined;
}

/** Splits a draft-06/07 `$id` that carries a fragment into 2020-12's `$id` and `$anchor`. */
function identityOf(id: string): { $id?: string; $anchor?: string } {
  const hash = id.indexOf('#');
  if (hash === -1) return { $id: id };
  const base = id.slice(0, hash);
  const fragment = id.slice(hash + 1);
  return {
    ...(base === '' ? {} : { $id: base }),
    ...(ANCHOR_NAME.test(fragment) ? { $anchor: fragment } : {}),
  };
}

/**
 * Rewrites the keywords of ONE schema object that drafts 04-07 and 2019-09 spell otherwise
 * (subschemas are left as they are; `upgradeSchemaDraft` walks a whole document): an older
 * `$schema` goes; `id` and fragment `$id`s become `$id` / `$anchor`; `definitions` becomes `$defs`;
 * tuple `items` arrays become `prefixItems` (and `additionalItems` the `items` after them);
 * `dependencies` splits into `dependentRequired` and `dependentSchemas`; draft-04's boolean
 * `exclusiveMinimum`/`exclusiveMaximum` become the bound itself; 2019-09's `$recursiveRef` becomes
 * a `$ref` and its `$recursiveAnchor` goes. Keys keep their order; the input is not changed.
 */
export function upgradeSchemaKeywords(
  node: Record<string, unknown>,
): UpgradedSchema<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  const rewrites: SchemaDraftRewrite[] = [];
  const rewrote = (keyword: string, message: string): void => {
    rewrites.push({ path: '/', keyword, message });
  };
  const merged = definitionsMerge(node);
  for (const [keyword, value] of Object.entries(node)) {
    switch (keyword) {
      case '$schema':
        if (declaresOlderDraft(value))
          rewrote(keyword, `${String(value)} is read as draft 2020-12`);
        else setOwnProperty(result, keyword, value);
        continue;
      case 'id':
      case '$id': {
        const legacyId = keyword === 'id';
        if (typeof value !== 'string' || (legacyId && '$id' in node)) {
          setOwnProperty(result, keyword, value);
          continue;
        }
        const identity = identityOf(value);
        if (!legacyId && identity.$id === value) {
          result['$id'] = value;
          continue;
        }
        Object.assign(result, identity);
        rewrote(
          keyword,
          identity.$id === undefined && identity.$anchor === undefined
            ? 'dropped: an empty fragment names nothing'
            : `became ${Object.keys(identity)
                .map((name) => `"${name}"`)
                .join(' and ')}`,
        );
        continue;
      }
      case 'definitions':
        if (merged === undefined) setOwnProperty(result, keyword, value);
        else {
          result['$defs'] = merged;
          rewrote(keyword, 'became "$defs"');
        }
        continue;
      case '$defs':
        if (merged === undefined) result['$defs'] = value;
        continue;
      case 'items':
        if (Array.isArray(value)) rewrote(keyword, 'the tuple form became "prefixItems"');
        setOwnProperty(result, keywordIn2020(node, keyword), value);
        continue;
      case 'additionalItems':
        if (Array.isArray(node['items'])) {
          result['items'] = value;
          rewrote(keyword, 'became "items" (after "prefixItems")');
        } else rewrote(keyword, 'dropped: without a tuple "items" it had no effect');
        continue;
      case 'dependencies':
        if (!isRecord(value)) {
          setOwnProperty(result, keyword, value);
          continue;
        }
        for (const [name, dependency] of Object.entries(value)) {
          const target = keywordIn2020(node, keyword, name);
          const map = isRecord(result[target]) ? result[target] : {};
          setOwnProperty(map, name, dependency);
          result[target] = map;
        }
        rewrote(keyword, 'became "dependentRequired" / "dependentSchemas"');
        continue;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum': {
        if (typeof value !== 'boolean') {
          result[keyword] = value;
          continue;
        }
        const bound = exclusiveBound(node, keyword);
        if (bound === undefined) rewrote(keyword, `dropped: ${String(value)} excludes no bound`);
        else {
          result[keyword] = bound;
          rewrote(keyword, `true became the bound ${bound}`);
        }
        continue;
      }
      case 'minimum':
      case 'maximum':
        // draft-04: `exclusiveMinimum: true` made this bound exclusive; it now lives there.
        if (
          exclusiveBound(node, keyword === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum') !==
          undefined
        )
          continue;
        result[keyword] = value;
        continue;
      case '$recursiveRef':
        if ('$ref' in node) {
          const allOf = Array.isArray(node['allOf']) ? (node['allOf'] as unknown[]) : [];
          result['allOf'] = [...allOf, { $ref: value }];
        } else result['$ref'] = value;
        rewrote(keyword, 'became "$ref" (resolved statically, without dynamic extension)');
        continue;
      case '$recursiveAnchor':
        rewrote(keyword, 'dropped: "$recursiveRef"s are static "$ref"s now');
        continue;
      case 'dependentRequired':
      case 'dependentSchemas': {
        // `dependencies` may already have put entries here.
        const written = result[keyword];
        result[keyword] = isRecord(written) && isRecord(value) ? { ...value, ...written } : value;
        continue;
      }
      case 'allOf':
        // `$recursiveRef` beside a `$ref` appends to it; the merged list is already written.
        if ('$recursiveRef' in node && '$ref' in node && 'allOf' in result) continue;
        result[keyword] = value;
        continue;
      default:
        setOwnProperty(result, keyword, value);
    }
  }
  return { schema: result, rewrites };
}

/** Follows a JSON Pointer into an older-draft document and gives it as it reads after the rewrite. */
function pointerIn2020(root: unknown, tokens: readonly string[]): string[] {
  const result: string[] = [];
  let node: unknown = root;
  for (let index = 0; index < tokens.length;) {
    const keyword = tokens[index] ?? '';
    const key = tokens[index + 1];
    if (!isRecord(node)) return [...result, ...tokens.slice(index)];
    const value = node[keyword];
    const keyed =
      Array.isArray(value) ||
      (isRecord(value) && !(SINGLE_SUBSCHEMA_KEYWORDS as readonly string[]).includes(keyword));
    if (!keyed) {
      result.push(keywordIn2020(node, keyword));
      node = value;
      index += 1;
      continue;
    }
    if (key === undefined) return [...result, keywordIn2020(node, keyword)];
    result.push(keywordIn2020(node, keyword, key), key);
    node = Array.isArray(value) ? value[Number(key)] : value[key];
    index += 2;
  }
  return result;
}

function fragmentOf(tokens: readonly string[]): string {
  return formatPointerFragment(formatJsonPointer(tokens));
}

function tokensOf(pointer: string): string[] {
  return parseJsonPointer(pointer) ?? [];
}

/** Pointers of the schema objects that start a resource of their own (an `$id` / `id` other than a fragment). */
function resourceRoots(schema: SchemaNode): string[] {
  const roots = [''];
  walkSchema(schema, (node, location) => {
    const id = node['$id'] ?? node['id'];
    if (location.pointer !== '' && typeof id === 'string' && !id.startsWith('#'))
      roots.push(location.pointer);
  });
  return roots;
}

function isWithin(pointer: string, root: string): boolean {
  return root === '' || pointer === root || pointer.startsWith(`${root}/`);
}

/**
 * Brings a whole JSON Schema of draft 04, 06, 07 or 2019-09 to draft 2020-12: every subschema's
 * keywords as `upgradeSchemaKeywords` rewrites them, and each local `$ref` (`#/definitions/x`,
 * `#/items/0`) pointed at where its target moved. Each rewrite is reported with its path in the
 * original schema; a 2020-12 schema comes back equal, with no rewrites. The input is not changed;
 * a schema nested deeper than the stack comes back as it was, for the schema checks to refuse.
 */
export function upgradeSchemaDraft<TSchema extends SchemaNode>(
  schema: TSchema,
): UpgradedSchema<TSchema> {
  const rewrites: SchemaDraftRewrite[] = [];
  try {
    const roots = resourceRoots(schema);
    const upgraded = mapSchema(schema, (node, location) => {
      const { schema: result, rewrites: own } = upgradeSchemaKeywords(node);
      for (const rewrite of own) rewrites.push({ ...rewrite, path: location.pointer || '/' });
      const reference = result['$ref'];
      if (typeof reference !== 'string' || !reference.startsWith('#/')) return result;
      // A `#` fragment is read against the innermost resource the `$ref` sits in.
      const root = roots.filter((pointer) => isWithin(location.pointer, pointer)).at(-1) ?? '';
      const tokens = [...tokensOf(root), ...tokensOf(decodeURIComponent(reference.slice(1)))];
      const moved = pointerIn2020(schema, tokens).slice(tokensOf(root).length);
      const target = fragmentOf(moved);
      if (target !== fragmentOf(tokens.slice(tokensOf(root).length))) {
        result['$ref'] = target;
        rewrites.push({
          path: location.pointer || '/',
          keyword: '$ref',
          message: `${reference} became ${target}`,
        });
      }
      return result;
    });
    rewrites.sort((left, right) => left.path.localeCompare(right.path));
    return { schema: upgraded as TSchema, rewrites };
  } catch (error) {
    if (error instanceof RangeError) return { schema, rewrites: [] };
    throw error;
  }
}
