import { ToolgateError, type Issue } from '../errors/toolgate-error';
import type { JsonSchema } from '../ir/tool-ir';
import { checkJsonSchema } from './check-json-schema';
import {
  formatJsonPointer,
  formatPointerFragment,
  parseJsonPointer,
  resolveJsonPointer,
} from './json-pointer';
import { SchemaIndex, type RefTarget } from './schema-index';
import { childSubschemas, escapePointerToken, mapSchema, type SchemaNode } from './walk-schema';
import { isRecord } from '../json/is-record';
import { IN_PLACE_KEYWORDS } from './find-unguarded-cycles';

/**
 * A schema in Toolgate's canonical form: every acyclic local `$ref` inlined, recursion kept as `$ref`s.
 * The schema is a fresh object (the input is never changed) with no `$schema`, `$id` or `$anchor`,
 * and only the `$defs` / `definitions` entries that its kept `$ref`s still point at.
 */
export interface NormalizedSchema {
  /** The canonical schema; self-contained, draft 2020-12. */
  schema: JsonSchema;
  /** The `$ref`s kept because inlining them would never end, as root-relative fragments (`#/$defs/node`, `#`), sorted and unique; empty for an acyclic schema. */
  recursiveRefs: string[];
  /** Non-fatal findings, e.g. each recursive `$ref` kept (with where it sits) or a `$dynamicRef` left alone. */
  issues: Issue[];
}

/** Limits for `normalizeSchema`. */
export interface NormalizeSchemaOptions {
  /** Most subschemas the inlined result may hold; a schema whose refs fan out beyond it is `unsupported_schema`. */
  maxNodes?: number;
}

const DEFAULT_MAX_NODES = 50_000;
const IDENTITY_KEYWORDS = ['$schema', '$id', '$anchor'];
// Annotations do not change what validates, so a `$ref`'s sibling annotation may simply override the target's.
const ANNOTATION_KEYWORDS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);
// Keywords whose meaning depends on their neighbours: split across a merge, they would change meaning.
const ADJACENT_GROUPS = [
  ['properties', 'patternProperties', 'additionalProperties'],
  ['prefixItems', 'items'],
  ['contains', 'minContains', 'maxContains'],
  ['if', 'then', 'else'],
  ['$defs', 'definitions'],
];
const UNEVALUATED = ['unevaluatedProperties', 'unevaluatedItems'];

/** One location being expanded: its pointer, and whether it was entered without descending into the instance. */
interface TrailStep {
  key: string;
  inPlace: boolean;
}

interface CycleCheck {
  trail: readonly TrailStep[];
  key: string;
  inPlace: boolean;
  at: string;
}

class SchemaResolver {
  readonly #index: SchemaIndex;
  readonly #errors = new Map<string, Issue>();
  readonly #notes: Issue[] = [];
  readonly #maxNodes: number;
  #nodes = 0;

  constructor(root: Record<string, unknown>, maxNodes: number) {
    this.#index = new SchemaIndex(root);
    this.#maxNodes = maxNodes;
  }

  get errors(): Issue[] {
    return [...this.#errors.values()];
  }

  get notes(): Issue[] {
    return this.#notes;
  }

  #fail(path: string, message: string): undefined {
    this.#errors.set(path, { path, message });
    return undefined;
  }

  #lookup(reference: string, base: string, at: string): RefTarget | undefined {
    const found = this.#index.lookup(reference, base);
    return found.ok ? found.target : this.#fail(at, found.message);
  }

  /**
   * True when entering `key` closes a cycle. A cycle that only passes through in-place applicators
   * (`$ref`, `allOf`, `anyOf`, `not`, ...) never reaches a smaller part of the instance, so no
   * validator can terminate on it: that is recorded as an error, not kept.
   */
  #isCycle({ trail, key, inPlace, at }: CycleCheck): boolean {
    const index = trail.findIndex((step) => step.key === key);
    if (index === -1) return false;
    if (inPlace && trail.slice(index + 1).every((step) => step.inPlace)) {
      this.#fail(
        at,
        `${formatPointerFragment(key)} refers to itself without descending into the instance`,
      );
    }
    return true;
  }

  /**
   * Resolves the subschema found at `tokens` of the original document.
   * `trail` holds every location being expanded above it, each with how it was entered.
   */
  resolve(node: SchemaNode, tokens: string[], trail: TrailStep[]): SchemaNode {
    if (!isRecord(node)) return node;
    this.#nodes += 1;
    if (this.#nodes > this.#maxNodes) {
      throw new ToolgateError(
        'unsupported_schema',
        `The schema grows beyond ${this.#maxNodes} subschemas once its $refs are inlined`,
        {
          details: {
            issues: [
              { path: '/', message: `more than ${this.#maxNodes} subschemas after inlining` },
            ],
          },
        },
      );
    }
    const base = this.#index.baseAt(tokens);
    const pointer = formatJsonPointer(tokens);
    const copy = mapSchemaChildren(node, (child, childTokens) => {
      const tokensFromRoot = [...tokens, ...childTokens];
      const key = formatJsonPointer(tokensFromRoot);
      const inPlace = IN_PLACE_KEYWORDS.has(childTokens[0] ?? '');
      // Reaching a location that is already being expanded above is a cycle: point back at it.
      if (this.#isCycle({ trail, key, inPlace, at: key }))
        return { $ref: formatPointerFragment(key) };
      trail.push({ key, inPlace });
      try {
        return this.resolve(child, tokensFromRoot, trail);
      } finally {
        trail.pop();
      }
    });
    for (const keyword of IDENTITY_KEYWORDS) delete copy[keyword];
    if (typeof copy['$dynamicRef'] === 'string' || typeof copy['$recursiveRef'] === 'string') {
      this.#notes.push({
        path: pointer || '/',
        message: 'dynamic references are kept as they are, not resolved',
      });
    }
    const reference = copy['$ref'];
    if (typeof reference !== 'string') return copy;
    const target = this.#lookup(reference, base, `${pointer}/$ref`);
    if (target === undefined) return copy;
    const targetKey = formatJsonPointer(target.tokens);
    if (this.#isCycle({ trail, key: targetKey, inPlace: true, at: `${pointer}/$ref` })) {
      copy['$ref'] = formatPointerFragment(targetKey);
      return copy;
    }
    trail.push({ key: targetKey, inPlace: true });
    let expanded: SchemaNode;
    try {
      expanded = this.resolve(target.node, target.tokens, trail);
    } finally {
      trail.pop();
    }
    delete copy['$ref'];
    return mergeReference(copy, expanded);
  }
}

/** Copies a schema object with each direct subschema replaced by `resolveChild` (given its tokens relative to the object). */
function mapSchemaChildren(
  node: Record<string, unknown>,
  resolveChild: (child: SchemaNode, tokens: string[]) => SchemaNode,
): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...node };
  for (const child of childSubschemas(node)) {
    const tokens = child.key === undefined ? [child.keyword] : [child.keyword, child.key];
    const resolved = resolveChild(child.node, tokens);
    if (child.key === undefined) {
      copy[child.keyword] = resolved;
      continue;
    }
    const holder = copy[child.keyword];
    if (Array.isArray(holder)) {
      const items =
        holder === node[child.keyword] ? [...(holder as unknown[])] : (holder as unknown[]);
      items[Number(child.key)] = resolved;
      copy[child.keyword] = items;
    } else if (isRecord(holder)) {
      const entries = holder === node[child.keyword] ? { ...holder } : holder;
      Object.defineProperty(entries, child.key, {
        value: resolved,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      copy[child.keyword] = entries;
    }
  }
  return copy;
}

function canMerge(siblings: Record<string, unknown>, target: Record<string, unknown>): boolean {
  const siblingKeys = Object.keys(siblings);
  const targetKeys = Object.keys(target);
  if ([...siblingKeys, ...targetKeys].some((key) => UNEVALUATED.includes(key))) return false;
  if (siblingKeys.some((key) => key in target && !ANNOTATION_KEYWORDS.has(key))) return false;
  return ADJACENT_GROUPS.every(
    (group) =>
      !(
        group.some((key) => siblingKeys.includes(key)) &&
        group.some((key) => targetKeys.includes(key))
      ),
  );
}

/** Combines a `$ref`'s sibling keywords with its resolved target: a flat merge when that keeps the meaning, else `allOf`. */
function mergeReference(siblings: Record<string, unknown>, target: SchemaNode): SchemaNode {
  if (Object.keys(siblings).length === 0) return target;
  if (target === true) return siblings;
  if (isRecord(target) && canMerge(siblings, target)) return { ...target, ...siblings };
  const allOf = Array.isArray(siblings['allOf']) ? (siblings['allOf'] as unknown[]) : [];
  return { ...siblings, allOf: [...allOf, target] };
}

const DEFINITION_KEYWORDS = new Set(['$defs', 'definitions']);

/** Finds the `$defs` / `definitions` entries the kept `$ref`s of `schema` need, directly or through other kept entries. */
function neededDefinitions(schema: Record<string, unknown>): Set<string> {
  const needed = new Set<string>();
  const visitRegion = (node: unknown): void => {
    if (!isRecord(node)) return;
    const reference = node['$ref'];
    if (typeof reference === 'string' && reference.startsWith('#')) markTarget(reference);
    for (const child of childSubschemas(node)) {
      if (!DEFINITION_KEYWORDS.has(child.keyword)) visitRegion(child.node);
    }
  };
  const markTarget = (reference: string): void => {
    const tokens = parseJsonPointer(decodeURIComponent(reference.slice(1))) ?? [];
    tokens.forEach((token, index) => {
      if (!DEFINITION_KEYWORDS.has(token) || index + 1 >= tokens.length) return;
      const entry = tokens.slice(0, index + 2);
      const key = formatJsonPointer(entry);
      if (needed.has(key)) return;
      needed.add(key);
      visitRegion(resolveJsonPointer(schema, entry));
    });
  };
  visitRegion(schema);
  return needed;
}

function pruneDefinitions(schema: Record<string, unknown>): SchemaNode {
  const needed = neededDefinitions(schema);
  return mapSchema(schema, (subschema, location) => {
    const pruned: Record<string, unknown> = { ...subschema };
    for (const keyword of DEFINITION_KEYWORDS) {
      const entries = pruned[keyword];
      if (!isRecord(entries)) continue;
      const kept = Object.entries(entries).filter(([name]) =>
        needed.has(
          `${location.pointer}/${escapePointerToken(keyword)}/${escapePointerToken(name)}`,
        ),
      );
      if (kept.length === 0) delete pruned[keyword];
      else pruned[keyword] = Object.fromEntries(kept);
    }
    return pruned;
  });
}

interface KeptReference {
  /** JSON Pointer of the `$ref` keyword in the normalized schema. */
  at: string;
  reference: string;
}

function keptReferences(schema: SchemaNode): KeptReference[] {
  const found: KeptReference[] = [];
  const visit = (node: SchemaNode, pointer: string): void => {
    if (!isRecord(node)) return;
    if (typeof node['$ref'] === 'string')
      found.push({ at: `${pointer}/$ref`, reference: node['$ref'] });
    for (const child of childSubschemas(node)) {
      const keyword = `${pointer}/${escapePointerToken(child.keyword)}`;
      visit(
        child.node,
        child.key === undefined ? keyword : `${keyword}/${escapePointerToken(child.key)}`,
      );
    }
  };
  visit(schema, '');
  return found;
}

function normalizeSchemaUnguarded(
  schema: unknown,
  options: NormalizeSchemaOptions = {},
): NormalizedSchema {
  if (!isRecord(schema)) {
    throw new ToolgateError('invalid_schema', 'A schema must be a JSON object', {
      details: { issues: [{ path: '/', message: 'must be a JSON Schema object' }] },
    });
  }
  const metaIssues = checkJsonSchema(schema);
  if (metaIssues.length > 0) {
    throw new ToolgateError(
      'invalid_schema',
      `Invalid JSON Schema: ${metaIssues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
      {
        details: { issues: metaIssues },
      },
    );
  }
  const resolver = new SchemaResolver(schema, options.maxNodes ?? DEFAULT_MAX_NODES);
  const resolved = resolver.resolve(schema, [], [{ key: '', inPlace: true }]);
  const referenceErrors = resolver.errors;
  if (referenceErrors.length > 0) {
    throw new ToolgateError(
      'invalid_schema',
      `Invalid $ref: ${referenceErrors.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
      {
        details: { issues: referenceErrors },
      },
    );
  }
  // The root of a parameters schema is an object schema; a root `$ref` to `false` is the only way to lose that.
  const canonical = isRecord(resolved) ? pruneDefinitions(resolved) : { not: {} };
  const kept = keptReferences(canonical);
  return {
    schema: canonical as JsonSchema,
    recursiveRefs: [...new Set(kept.map((entry) => entry.reference))].sort(),
    issues: [
      ...kept.map(({ at, reference }) => ({
        path: at,
        message: `recursive $ref ${reference} kept: inlining it would never end`,
      })),
      ...resolver.notes,
    ],
  };
}

/**
 * Brings a JSON Schema (draft 2020-12) into canonical form: checks it against the meta-schema,
 * inlines every local `$ref` (`#/$defs/x`, `#/definitions/x`, escaped pointers, `#`, `$anchor`s) that is not
 * part of a cycle, keeps recursive `$ref`s with the definitions they need and reports them, and drops
 * `$schema`, `$id`, `$anchor` and unused definitions. The input is never changed.
 * Throws ToolgateError `invalid_schema` (with `details.issues`) for an invalid schema, a non-local
 * or unresolvable `$ref` or a `$ref` cycle that never descends into the instance, and
 * `unsupported_schema` when inlining would exceed `maxNodes` or the schema is nested too deeply.
 */
export function normalizeSchema(
  schema: unknown,
  options: NormalizeSchemaOptions = {},
): NormalizedSchema {
  try {
    return normalizeSchemaUnguarded(schema, options);
  } catch (error) {
    // Every step recurses over the schema; one nested deeper than the stack is refused, never a crash.
    if (error instanceof RangeError) {
      throw new ToolgateError('unsupported_schema', 'The schema is nested too deeply', {
        details: { issues: [{ path: '/', message: 'is nested too deeply' }] },
        cause: error,
      });
    }
    throw error;
  }
}
