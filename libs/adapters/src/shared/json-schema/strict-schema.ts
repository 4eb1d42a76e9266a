import { cloneJson, setOwnProperty } from '@toolgate/toolir';
import type { ToolReporter } from '../downgrade-report';
import { acceptsNull } from './accepts-null';
import { appendConstraintsToDescription } from './describe-constraints';
import { hasObjectComposition, mergeObjectComposition } from './merge-root-composition';
import { resolveLocalRef } from './resolve-local-ref';
import {
  isSchemaNode,
  listOf,
  pointer,
  typeList,
  typeOfValues,
  type SchemaNode,
} from './schema-node';

/** What a provider's strict mode accepts, after its official SDK helper (values in PROVIDER_LIMITS). */
export interface StrictProfile {
  /** Keywords kept as they are; every other keyword is moved into the description. */
  keep: ReadonlySet<string>;
  /** String formats the provider accepts in strict mode. */
  formats: ReadonlySet<string>;
  /** OpenAI: every property is required; optional ones become nullable. */
  requireAll: boolean;
}

const SCALAR_TYPES = ['string', 'number', 'boolean', 'null'];

/**
 * Rewrites a JSON Schema for a provider's strict mode (openai-node and anthropic-sdk
 * `transform-json-schema.ts`): `additionalProperties:false` on every object, `oneOf` -> `anyOf`,
 * a `$ref` with siblings unrolled, unsupported keywords and formats moved into the description,
 * and with `requireAll` every optional property made required and nullable. Every change is reported.
 */
export function toStrictSchema(
  root: SchemaNode,
  reporter: ToolReporter,
  profile: StrictProfile,
): SchemaNode {
  // A oneOf branch is visited as an anyOf one: its report entries keep its place in the IR.
  const places = new WeakMap<object, string>();
  const visit = (input: unknown, visitedAt: string): SchemaNode => {
    const path =
      (typeof input === 'object' && input !== null ? places.get(input) : undefined) ?? visitedAt;
    let node: SchemaNode;
    if (typeof input === 'boolean') {
      reporter.note(path, 'boolean schema', {
        action: 'rewritten',
        detail: `${String(input)} written as a schema object`,
      });
      node = input ? {} : { not: {} };
    } else if (isSchemaNode(input)) {
      node = { ...input };
    } else {
      return {};
    }
    const ref = node['$ref'];
    if (typeof ref === 'string' && Object.keys(node).some((key) => key !== '$ref')) {
      const target = resolveLocalRef(root, ref);
      if (isSchemaNode(target)) {
        const { $ref: _ref, ...siblings } = node;
        const { $defs: _defs, definitions: _definitions, ...body } = cloneJson(target);
        node = { ...body, ...siblings };
        reporter.note(path, '$ref', {
          action: 'rewritten',
          detail: `${ref} unrolled: a $ref must stand alone`,
        });
      }
    }
    if (Array.isArray(node['oneOf'])) {
      const { oneOf, ...rest } = node;
      (oneOf as unknown[]).forEach((branch, index) => {
        if (typeof branch === 'object' && branch !== null)
          places.set(branch, pointer(path, 'oneOf', index));
      });
      node = { ...rest, anyOf: [...(listOf(rest['anyOf']) ?? []), ...(listOf(oneOf) ?? [])] };
      reporter.note(pointer(path, 'oneOf'), 'oneOf', {
        action: 'rewritten',
        detail: 'oneOf written as anyOf (looser)',
      });
    }
    // additionalProperties:false on each allOf member would reject every combination: merge object members first.
    if (
      Array.isArray(node['allOf']) &&
      node['allOf'].length > 1 &&
      hasObjectComposition(node, root, ['allOf'])
    ) {
      node = mergeObjectComposition(node, { root, path, reporter, keywords: ['allOf'] });
    }
    const allOf = node['allOf'];
    if (Array.isArray(allOf) && allOf.length === 1 && isSchemaNode(allOf[0])) {
      const { allOf: _allOf, ...rest } = node;
      node = { ...allOf[0], ...rest };
      reporter.note(pointer(path, 'allOf'), 'allOf', {
        action: 'rewritten',
        detail: 'single-member allOf merged',
      });
    }
    node = inferType(node, { path, reporter, why: 'strict mode needs a type' });

    const moved: Array<[string, unknown]> = [];
    const result: SchemaNode = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'additionalProperties') continue;
      if (key === 'default' && value === null) {
        reporter.note(pointer(path, key), key, { action: 'dropped', detail: 'default: null' });
      } else if (key === 'format' && !profile.formats.has(String(value))) {
        moved.push([key, value]);
      } else if (key === 'minItems' && typeof value === 'number' && value > 1) {
        moved.push([key, value]);
      } else if (profile.keep.has(key)) {
        setOwnProperty(result, key, value);
      } else {
        moved.push([key, value]);
      }
    }
    for (const [key] of moved) {
      reporter.note(pointer(path, key), key, { action: 'moved_to_description' });
    }

    if (isSchemaNode(result['properties'])) {
      const properties: SchemaNode = {};
      for (const [key, value] of Object.entries(result['properties']))
        setOwnProperty(properties, key, visit(value, pointer(path, 'properties', key)));
      result['properties'] = properties;
    }
    for (const keyword of ['$defs', 'definitions'] as const) {
      const definitions = result[keyword];
      if (!isSchemaNode(definitions)) continue;
      const mapped: SchemaNode = {};
      for (const [key, value] of Object.entries(definitions))
        setOwnProperty(mapped, key, visit(value, pointer(path, keyword, key)));
      result[keyword] = mapped;
    }
    for (const keyword of ['anyOf', 'allOf'] as const) {
      const list = result[keyword];
      if (Array.isArray(list))
        result[keyword] = list.map((item, index) => visit(item, pointer(path, keyword, index)));
    }
    const types = typeList(result);
    if (types.includes('array')) {
      const items = node['items'];
      if (Array.isArray(items) || (items === undefined && Array.isArray(node['prefixItems']))) {
        const members: unknown[] = Array.isArray(items)
          ? items
          : (node['prefixItems'] as unknown[]);
        result['items'] = visit({ anyOf: members }, pointer(path, 'items'));
        reporter.note(
          pointer(path, Array.isArray(items) ? 'items' : 'prefixItems'),
          'prefixItems',
          {
            action: 'rewritten',
            detail: 'tuple written as an array of any member type',
          },
        );
      } else if (items === undefined) {
        result['items'] = visit({}, pointer(path, 'items'));
      } else {
        result['items'] = visit(items, pointer(path, 'items'));
      }
    }
    if (types.includes('object')) {
      finishObject(result, { node, path, moved });
      if (profile.requireAll) requireEveryProperty(result, { path, reporter, root });
    }
    return appendConstraintsToDescription(result, moved);
  };

  const finishObject = (
    result: SchemaNode,
    context: { node: SchemaNode; path: string; moved: Array<[string, unknown]> },
  ): void => {
    if (!isSchemaNode(result['properties'])) result['properties'] = {};
    const additional = context.node['additionalProperties'];
    if (additional !== false) {
      const schemaValued = isSchemaNode(additional);
      reporter.note(pointer(context.path, 'additionalProperties'), 'additionalProperties', {
        action: schemaValued ? 'moved_to_description' : 'rewritten',
        detail: 'strict mode requires additionalProperties: false; extra keys are rejected',
      });
      if (schemaValued) context.moved.push(['additionalProperties', additional]);
    }
    result['additionalProperties'] = false;
  };

  return visit(root, '');
}

/**
 * The node with a `type` where it has none and is no composition: inferred from its keywords or
 * values, else narrowed to scalar values (reported with `why`), for wires that need a type.
 */
export function inferType(
  node: SchemaNode,
  at: { path: string; reporter: ToolReporter; why: string },
): SchemaNode {
  const { path, reporter, why } = at;
  if (
    node['type'] !== undefined ||
    node['anyOf'] !== undefined ||
    node['oneOf'] !== undefined ||
    node['allOf'] !== undefined ||
    node['$ref'] !== undefined
  ) {
    return node;
  }
  let type: string | string[] | undefined;
  if (isSchemaNode(node['properties'])) type = 'object';
  else if (node['items'] !== undefined || node['prefixItems'] !== undefined) type = 'array';
  else if (Array.isArray(node['enum']))
    type = withNull(typeOfValues(node['enum']), node['enum'].includes(null));
  else if ('const' in node) type = node['const'] === null ? 'null' : typeOfValues([node['const']]);
  if (type === undefined && (Array.isArray(node['enum']) || 'const' in node)) return node;
  if (type === undefined) {
    type = SCALAR_TYPES;
    reporter.note(pointer(path, 'type'), 'type', {
      action: 'rewritten',
      detail: `a schema without a type narrowed to scalar values: ${why}`,
    });
  }
  return { ...node, type };
}

function withNull(type: string | undefined, nullable: boolean): string | string[] | undefined {
  return type === undefined || !nullable ? type : [type, 'null'];
}

function requireEveryProperty(
  result: SchemaNode,
  context: { path: string; reporter: ToolReporter; root: SchemaNode },
): void {
  const { path, reporter, root } = context;
  const properties = result['properties'] as SchemaNode;
  const required = Array.isArray(result['required'])
    ? result['required'].filter((key) => typeof key === 'string')
    : [];
  for (const [key, schema] of Object.entries(properties)) {
    if (required.includes(key)) continue;
    reporter.note(pointer(path, 'properties', key), 'required', {
      action: 'rewritten',
      detail: 'optional property sent as required and nullable; a null is dropped on the way back',
    });
    if (!acceptsNull(schema, root)) setOwnProperty(properties, key, makeNullable(schema));
  }
  result['required'] = Object.keys(properties);
}

/** The same schema, also accepting `null` (`type: [T, 'null']`, or `anyOf: [S, {type:'null'}]`). */
export function makeNullable(schema: unknown): SchemaNode {
  if (!isSchemaNode(schema)) return { anyOf: [schema, { type: 'null' }] };
  const type = schema['type'];
  if ((typeof type === 'string' || Array.isArray(type)) && !('const' in schema)) {
    const types = typeof type === 'string' ? [type] : [...(type as unknown[])];
    const result: SchemaNode = {
      ...schema,
      type: types.includes('null') ? types : [...types, 'null'],
    };
    const values = listOf(schema['enum']);
    if (values !== undefined && !values.includes(null)) result['enum'] = [...values, null];
    return result;
  }
  if (
    Array.isArray(schema['anyOf']) &&
    Object.keys(schema).every((key) => key === 'anyOf' || key === 'description' || key === 'title')
  ) {
    return { ...schema, anyOf: [...(listOf(schema['anyOf']) ?? []), { type: 'null' }] };
  }
  return { anyOf: [schema, { type: 'null' }] };
}
