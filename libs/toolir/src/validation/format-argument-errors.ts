import type { ErrorObject } from 'ajv';
import type { ArgumentError } from './argument-error';

const FORMAT_HINTS: Readonly<Record<string, string>> = {
  'date-time': 'date-time (RFC 3339, e.g. 2024-01-31T09:30:00Z)',
  date: 'date (YYYY-MM-DD)',
  time: 'time (HH:MM:SS with a time zone, e.g. 09:30:00Z)',
  duration: 'duration (ISO 8601, e.g. P3DT4H)',
  uri: 'uri (absolute, with a scheme, e.g. https://example.com/a)',
  'uri-reference': 'uri-reference',
  uuid: 'uuid (e.g. 123e4567-e89b-12d3-a456-426614174000)',
  ipv4: 'ipv4 address',
  ipv6: 'ipv6 address',
};

const COMBINATORS = new Set(['anyOf', 'oneOf']);
const MAX_BRANCH_MESSAGES = 3;

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function childPath(instancePath: string, property: unknown): string {
  return `${instancePath}/${escapeSegment(String(property))}`;
}

function subjectOf(path: string): string {
  return path === '' ? 'the arguments' : path;
}

function displayPath(path: string): string {
  return path === '' ? '/' : path;
}

function plural(count: unknown, noun: string): string {
  return `${String(count)} ${noun}${count === 1 ? '' : 's'}`;
}

function showValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function property(params: Record<string, unknown>, name: string): unknown {
  return params[name];
}

function allowedProperties(error: ErrorObject): string | undefined {
  const parent: unknown = error.parentSchema;
  if (typeof parent !== 'object' || parent === null) return undefined;
  const properties = (parent as Record<string, unknown>)['properties'];
  if (typeof properties !== 'object' || properties === null) return undefined;
  const names = Object.keys(properties);
  return names.length === 0 ? undefined : names.join(', ');
}

/** The sentence after the subject for one ajv error, e.g. `must be <= 10`. */
function predicate(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const expected = property(params, 'type');
      const wanted = Array.isArray(expected) ? expected.join(' or ') : String(expected);
      return `must be of type ${wanted}, got ${typeOfValue(error.data)}`;
    }
    case 'enum': {
      const allowed = property(params, 'allowedValues');
      return `must be one of: ${Array.isArray(allowed) ? allowed.map(showValue).join(', ') : showValue(allowed)}`;
    }
    case 'const':
      return `must be exactly ${JSON.stringify(property(params, 'allowedValue'))}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'formatMinimum':
    case 'formatMaximum':
    case 'formatExclusiveMinimum':
    case 'formatExclusiveMaximum':
      return `must be ${String(property(params, 'comparison'))} ${showValue(property(params, 'limit'))}`;
    case 'multipleOf':
      return `must be a multiple of ${String(property(params, 'multipleOf'))}`;
    case 'minLength':
      return `must have at least ${plural(property(params, 'limit'), 'character')}`;
    case 'maxLength':
      return `must have at most ${plural(property(params, 'limit'), 'character')}`;
    case 'pattern':
      return `must match the pattern ${String(property(params, 'pattern'))}`;
    case 'format': {
      const format = String(property(params, 'format'));
      return `must be a valid ${FORMAT_HINTS[format] ?? format}`;
    }
    case 'minItems':
      return `must have at least ${plural(property(params, 'limit'), 'item')}`;
    case 'maxItems':
    case 'items':
    case 'unevaluatedItems':
      return `must have at most ${plural(property(params, 'limit') ?? property(params, 'len'), 'item')}`;
    case 'uniqueItems': {
      const first = Number(property(params, 'j'));
      const second = Number(property(params, 'i'));
      return `must not contain duplicate items (items ${Math.min(first, second)} and ${Math.max(first, second)} are equal)`;
    }
    case 'minProperties':
      return `must have at least ${plural(property(params, 'limit'), 'property')}`.replace(
        /propertys$/,
        'properties',
      );
    case 'maxProperties':
      return `must have at most ${plural(property(params, 'limit'), 'property')}`.replace(
        /propertys$/,
        'properties',
      );
    case 'contains': {
      const min = property(params, 'minContains');
      const max = property(params, 'maxContains');
      return max === undefined
        ? `must contain at least ${plural(min, 'item')} matching the "contains" schema`
        : `must contain between ${String(min)} and ${plural(max, 'item')} matching the "contains" schema`;
    }
    case 'propertyNames':
      return `has an invalid property name ${JSON.stringify(property(params, 'propertyName'))}`;
    case 'not':
      return 'must not match the schema in "not"';
    case 'false schema':
      return 'is not allowed';
    case 'if':
      return `must match the "${String(property(params, 'failingKeyword'))}" schema`;
    default:
      return (error.message ?? 'is invalid').replace(/\bNOT\b/g, 'not');
  }
}

/** Formats one error on its own (no combinator summary). */
function formatOne(error: ErrorObject): ArgumentError {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const path = childPath(error.instancePath, property(params, 'missingProperty'));
      return { path, keyword: error.keyword, message: `missing required property ${path}`, params };
    }
    case 'dependentRequired': {
      const path = childPath(error.instancePath, property(params, 'missingProperty'));
      const trigger = childPath(error.instancePath, property(params, 'property'));
      return {
        path,
        keyword: error.keyword,
        message: `missing property ${path}, required when ${trigger} is present`,
        params,
      };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = property(
        params,
        error.keyword === 'additionalProperties' ? 'additionalProperty' : 'unevaluatedProperty',
      );
      const path = childPath(error.instancePath, name);
      const allowed = allowedProperties(error);
      const hint = allowed === undefined ? '' : `; allowed properties: ${allowed}`;
      return {
        path,
        keyword: error.keyword,
        message: `${path} is not allowed (${error.keyword})${hint}`,
        params,
      };
    }
    default:
      return {
        path: displayPath(error.instancePath),
        keyword: error.keyword,
        message: `${subjectOf(error.instancePath)} ${predicate(error)}`,
        params,
      };
  }
}

function branchIndex(parent: ErrorObject, child: ErrorObject): number | undefined {
  const prefix = `${parent.schemaPath}/`;
  if (!child.schemaPath.startsWith(prefix)) return undefined;
  if (!child.instancePath.startsWith(parent.instancePath)) return undefined;
  const index = Number(child.schemaPath.slice(prefix.length).split('/')[0]);
  return Number.isInteger(index) ? index : undefined;
}

function summarizeCombinator(
  parent: ErrorObject,
  children: ReadonlyArray<readonly [number, ErrorObject]>,
): ArgumentError {
  const params = parent.params as Record<string, unknown>;
  const subject = subjectOf(parent.instancePath);
  const base = { path: displayPath(parent.instancePath), keyword: parent.keyword, params };
  const passing = property(params, 'passingSchemas');
  if (Array.isArray(passing)) {
    const options = passing.map((index) => `option ${Number(index) + 1}`).join(' and ');
    return {
      ...base,
      message: `${subject} must match exactly one of the allowed schemas (oneOf), but matched ${options}`,
    };
  }
  const byBranch = new Map<number, string[]>();
  for (const [index, child] of children) {
    const formatted = formatOne(child);
    // Inside a summary the path is implied when it is the combinator's own path.
    const text =
      formatted.path === base.path && formatted.message.startsWith(`${subject} `)
        ? formatted.message.slice(subject.length + 1)
        : formatted.message;
    const messages = byBranch.get(index) ?? [];
    if (messages.length < MAX_BRANCH_MESSAGES) messages.push(text);
    byBranch.set(index, messages);
  }
  const branches = [...byBranch.entries()]
    .sort(([left], [right]) => left - right)
    .map(([index, messages]) => `option ${index + 1}: ${messages.join(', ')}`);
  const which = parent.keyword === 'oneOf' ? 'exactly one' : 'at least one';
  const detail = branches.length === 0 ? '' : ` — ${branches.join('; ')}`;
  return {
    ...base,
    message: `${subject} must match ${which} of the allowed schemas (${parent.keyword})${detail}`,
  };
}

function explainedElsewhere(ifError: ErrorObject, errors: readonly ErrorObject[]): boolean {
  const branch = String((ifError.params as Record<string, unknown>)['failingKeyword']);
  const prefix = `${ifError.schemaPath.replace(/\/if$/, '')}/${branch}/`;
  return errors.some((other) => other.schemaPath.startsWith(prefix));
}

/**
 * Turns ajv's errors into model-actionable ArgumentErrors: property paths for missing and extra
 * properties, one summary per failed anyOf/oneOf (its branch errors folded in), no `if` noise.
 */
export function formatArgumentErrors(errors: readonly ErrorObject[]): ArgumentError[] {
  const consumed = new Set<ErrorObject>();
  const summaries = new Map<ErrorObject, ArgumentError>();
  const combinators = errors
    .filter((error) => COMBINATORS.has(error.keyword))
    .sort((left, right) => left.schemaPath.length - right.schemaPath.length);
  for (const parent of combinators) {
    if (consumed.has(parent)) continue;
    const children: Array<readonly [number, ErrorObject]> = [];
    for (const candidate of errors) {
      if (candidate === parent || consumed.has(candidate)) continue;
      const index = branchIndex(parent, candidate);
      if (index === undefined) continue;
      children.push([index, candidate]);
      consumed.add(candidate);
    }
    summaries.set(parent, summarizeCombinator(parent, children));
  }
  // Items failing the `contains` schema are expected; only the count matters.
  for (const parent of errors.filter((error) => error.keyword === 'contains')) {
    for (const candidate of errors) {
      if (candidate.schemaPath.startsWith(`${parent.schemaPath}/`)) consumed.add(candidate);
    }
  }
  const result: ArgumentError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (consumed.has(error)) continue;
    // An `if` error only restates that then/else failed; those errors are reported themselves.
    if (error.keyword === 'if' && explainedElsewhere(error, errors)) continue;
    const formatted = summaries.get(error) ?? formatOne(error);
    const key = `${formatted.path}\u0000${formatted.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(formatted);
  }
  return result;
}
