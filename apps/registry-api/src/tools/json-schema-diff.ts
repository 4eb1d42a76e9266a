import type { SchemaChange, SchemaChangeKind } from '@toolgate/contract';
import { canonicalJson } from '@toolgate/toolir';

// The change kinds and their shape are part of the HTTP contract (diffs, breaking_change problems).
export type { SchemaChange, SchemaChangeKind };

type SchemaObject = Record<string, unknown>;

const BREAKING: Record<SchemaChangeKind, boolean> = {
  property_removed: true,
  property_added: false,
  required_added: true,
  required_removed: false,
  type_narrowed: true,
  type_widened: false,
  enum_value_removed: true,
  enum_value_added: false,
  enum_added: true,
  enum_removed: false,
  const_changed: true,
  additional_properties_closed: true,
  additional_properties_opened: false,
  constraint_tightened: true,
  constraint_loosened: false,
  variant_removed: true,
  variant_added: false,
  reference_changed: true,
  input_format_changed: true,
  grammar_added: true,
  grammar_removed: false,
  // Whether a new grammar accepts every input the old one did is undecidable for context-free
  // grammars (and costly for regexes): a changed grammar asks for a major.
  grammar_changed: true,
  // Only calls the model did not finish are affected; every complete call runs as before.
  cut_argument_repair_enabled: false,
  cut_argument_repair_disabled: false,
  // How a run undoes or guards a write: the calls the model makes are accepted as before.
  compensation_changed: false,
  concurrency_changed: false,
  // A cache changes when a readonly answer is computed, never what a call may send.
  cache_added: false,
  cache_removed: false,
  cache_changed: false,
};

// Lower bounds: raising them rejects inputs that were valid. Upper bounds: lowering them does.
const LOWER_BOUNDS = [
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
  'minContains',
] as const;
const UPPER_BOUNDS = [
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
  'maxContains',
] as const;
// Keywords whose values cannot be ordered: any change or addition may reject old inputs.
const OPAQUE_CONSTRAINTS = [
  'pattern',
  'format',
  'multipleOf',
  'contentMediaType',
  'contentEncoding',
] as const;

/** Whether a change of this kind may break callers of the old version. */
export function isBreakingChange(kind: SchemaChangeKind): boolean {
  return BREAKING[kind];
}

function isObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(base: string, ...segments: string[]): string {
  return (
    base +
    segments.map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')
  );
}

function typesOf(schema: SchemaObject): Set<string> | null {
  const type = schema['type'];
  if (typeof type === 'string') return new Set(type === 'number' ? ['number', 'integer'] : [type]);
  if (Array.isArray(type)) {
    const types = new Set(type.filter((item): item is string => typeof item === 'string'));
    if (types.has('number')) types.add('integer');
    return types;
  }
  return null;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

class SchemaDiffer {
  readonly changes: SchemaChange[] = [];

  add(kind: SchemaChangeKind, path: string, message: string): void {
    this.changes.push({ kind, path, breaking: BREAKING[kind], message });
  }

  compare(before: unknown, after: unknown, path: string): void {
    // `true`/`{}` accept everything, `false` nothing; treat booleans as the objects they mean.
    const old = before === true || before === undefined ? {} : before;
    const next = after === true || after === undefined ? {} : after;
    if (old === false || next === false) {
      if (old !== next && next === false)
        this.add('type_narrowed', path, 'the schema now rejects every value');
      return;
    }
    if (!isObject(old) || !isObject(next)) return;
    if ('$ref' in old || '$ref' in next) {
      if (canonicalJson(old) !== canonicalJson(next)) {
        this.add(
          'reference_changed',
          path,
          'a $ref schema changed; references are not compared structurally',
        );
      }
      return;
    }
    this.compareTypes(old, next, path);
    this.compareEnum(old, next, path);
    this.compareConstraints(old, next, path);
    this.compareObject(old, next, path);
    if ('items' in old || 'items' in next)
      this.compare(old['items'], next['items'], pointer(path, 'items'));
    for (const keyword of ['anyOf', 'oneOf'] as const)
      this.compareVariants(old, next, { path, keyword });
  }

  private compareTypes(old: SchemaObject, next: SchemaObject, path: string): void {
    const before = typesOf(old);
    const after = typesOf(next);
    if (after === null) {
      if (before !== null)
        this.add('type_widened', pointer(path, 'type'), 'the type restriction was removed');
      return;
    }
    if (before === null) {
      this.add(
        'type_narrowed',
        pointer(path, 'type'),
        `the value must now be ${[...after].join(' or ')}`,
      );
      return;
    }
    const lost = [...before].filter((type) => !after.has(type));
    const gained = [...after].filter((type) => !before.has(type));
    if (lost.length > 0)
      this.add('type_narrowed', pointer(path, 'type'), `no longer accepts ${lost.join(', ')}`);
    if (gained.length > 0)
      this.add('type_widened', pointer(path, 'type'), `now also accepts ${gained.join(', ')}`);
  }

  private compareEnum(old: SchemaObject, next: SchemaObject, path: string): void {
    if (
      'const' in next &&
      (!('const' in old) || canonicalJson(old['const']) !== canonicalJson(next['const']))
    ) {
      this.add(
        'const_changed',
        pointer(path, 'const'),
        'the value must now equal a different constant',
      );
    }
    const before = Array.isArray(old['enum'])
      ? old['enum'].map((item) => canonicalJson(item))
      : null;
    const after = Array.isArray(next['enum'])
      ? next['enum'].map((item) => canonicalJson(item))
      : null;
    if (after === null) {
      if (before !== null)
        this.add('enum_removed', pointer(path, 'enum'), 'the enum restriction was removed');
      return;
    }
    if (before === null) {
      this.add('enum_added', pointer(path, 'enum'), 'the value is now restricted to an enum');
      return;
    }
    for (const value of before.filter((item) => !after.includes(item))) {
      this.add('enum_value_removed', pointer(path, 'enum'), `enum value ${value} was removed`);
    }
    for (const value of after.filter((item) => !before.includes(item))) {
      this.add('enum_value_added', pointer(path, 'enum'), `enum value ${value} was added`);
    }
  }

  private compareConstraints(old: SchemaObject, next: SchemaObject, path: string): void {
    const bound = (keyword: string, direction: 1 | -1): void => {
      const before = old[keyword];
      const after = next[keyword];
      if (typeof after !== 'number') {
        if (typeof before === 'number')
          this.add('constraint_loosened', pointer(path, keyword), `${keyword} was removed`);
        return;
      }
      if (typeof before !== 'number') {
        this.add('constraint_tightened', pointer(path, keyword), `${keyword} ${after} was added`);
      } else if ((after - before) * direction > 0) {
        this.add(
          'constraint_tightened',
          pointer(path, keyword),
          `${keyword} went from ${before} to ${after}`,
        );
      } else if (after !== before) {
        this.add(
          'constraint_loosened',
          pointer(path, keyword),
          `${keyword} went from ${before} to ${after}`,
        );
      }
    };
    for (const keyword of LOWER_BOUNDS) bound(keyword, 1);
    for (const keyword of UPPER_BOUNDS) bound(keyword, -1);
    for (const keyword of OPAQUE_CONSTRAINTS) {
      if (keyword in next && canonicalJson(old[keyword]) !== canonicalJson(next[keyword])) {
        this.add('constraint_tightened', pointer(path, keyword), `${keyword} was added or changed`);
      } else if (keyword in old && !(keyword in next)) {
        this.add('constraint_loosened', pointer(path, keyword), `${keyword} was removed`);
      }
    }
    if (next['uniqueItems'] === true && old['uniqueItems'] !== true) {
      this.add('constraint_tightened', pointer(path, 'uniqueItems'), 'items must now be unique');
    }
  }

  private compareObject(old: SchemaObject, next: SchemaObject, path: string): void {
    const beforeProperties = isObject(old['properties']) ? old['properties'] : {};
    const afterProperties = isObject(next['properties']) ? next['properties'] : {};
    const beforeRequired = new Set(stringArray(old['required']));
    const afterRequired = new Set(stringArray(next['required']));
    for (const name of Object.keys(beforeProperties)) {
      const propertyPath = pointer(path, 'properties', name);
      if (!(name in afterProperties)) {
        this.add('property_removed', propertyPath, `property "${name}" was removed`);
      } else {
        this.compare(beforeProperties[name], afterProperties[name], propertyPath);
      }
    }
    for (const name of Object.keys(afterProperties)) {
      if (!(name in beforeProperties))
        this.add(
          'property_added',
          pointer(path, 'properties', name),
          `property "${name}" was added`,
        );
    }
    for (const name of afterRequired) {
      if (!beforeRequired.has(name))
        this.add('required_added', pointer(path, 'required'), `property "${name}" is now required`);
    }
    for (const name of beforeRequired) {
      if (!afterRequired.has(name))
        this.add(
          'required_removed',
          pointer(path, 'required'),
          `property "${name}" is no longer required`,
        );
    }
    const before = old['additionalProperties'];
    const after = next['additionalProperties'];
    const path2 = pointer(path, 'additionalProperties');
    if (after === false && before !== false) {
      this.add('additional_properties_closed', path2, 'properties not listed are now rejected');
    } else if (before === false && after !== false) {
      this.add('additional_properties_opened', path2, 'properties not listed are now accepted');
    } else if (isObject(before) || isObject(after)) {
      this.compare(before, after, path2);
    }
  }

  private compareVariants(
    old: SchemaObject,
    next: SchemaObject,
    { path, keyword }: { path: string; keyword: 'anyOf' | 'oneOf' },
  ): void {
    const before = Array.isArray(old[keyword])
      ? old[keyword].map((item) => canonicalJson(item))
      : [];
    const after = Array.isArray(next[keyword])
      ? next[keyword].map((item) => canonicalJson(item))
      : [];
    if (before.length === 0 && after.length > 0) {
      this.add('variant_removed', pointer(path, keyword), `${keyword} now restricts the value`);
      return;
    }
    if (after.length === 0) {
      if (before.length > 0)
        this.add('variant_added', pointer(path, keyword), `${keyword} was removed`);
      return;
    }
    before.forEach((variant, index) => {
      if (!after.includes(variant))
        this.add(
          'variant_removed',
          pointer(path, keyword, String(index)),
          `${keyword} variant ${index} was removed or changed`,
        );
    });
    after.forEach((variant, index) => {
      if (!before.includes(variant))
        this.add(
          'variant_added',
          pointer(path, keyword, String(index)),
          `${keyword} variant ${index} was added`,
        );
    });
  }
}

/**
 * Compares two input (arguments) schemas. A change is breaking when some arguments valid
 * under `before` are rejected under `after`, i.e. an existing caller's call would now fail.
 */
export function diffInputSchemas(before: unknown, after: unknown, basePath = ''): SchemaChange[] {
  const differ = new SchemaDiffer();
  differ.compare(before, after, basePath);
  return differ.changes;
}
