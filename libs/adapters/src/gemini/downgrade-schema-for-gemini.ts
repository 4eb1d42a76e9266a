import { cloneJson, setOwnProperty } from '@toolgate/toolir';
import type { JsonSchema } from '@toolgate/toolir';
import type { ToolReporter } from '../shared/downgrade-report';
import { appendConstraintsToDescription } from '../shared/json-schema/describe-constraints';
import { renamePropertiesForWire } from '../shared/names/property-names';
import { inlineRefs } from '../shared/json-schema/inline-refs';
import {
  hasObjectComposition,
  mergeObjectComposition,
} from '../shared/json-schema/merge-root-composition';
import {
  isSchemaNode,
  listOf,
  pointer,
  typeList,
  typeOfValues,
  type SchemaNode,
} from '../shared/json-schema/schema-node';
import { PROVIDER_LIMITS } from '../shared/provider-limits/provider-limits';
import type { GeminiFunctionDeclaration, GeminiSchema } from './gemini-api';

/** Gemini's schema mode: the OpenAPI subset in `parameters` (works everywhere) or plain JSON Schema. */
export type GeminiSchemaMode = 'openapi' | 'jsonschema';

const INT64 = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);
const MOVE = new Set([
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'uniqueItems',
  'minContains',
  'maxContains',
  'dependentRequired',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentEncoding',
  'contentMediaType',
  'default',
]);
const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'nullable',
  'properties',
  'required',
  'items',
  'prefixItems',
  'format',
]);
const RULES = PROVIDER_LIMITS.gemini.schema;
// What Gemini takes as it is: its keywords less those this converter writes itself.
const KEEP = new Set(
  [...(RULES.keywords ?? [])].filter((key) => !HANDLED.has(key) && !INT64.has(key)),
);
/** One branch of an anyOf / oneOf and its JSON Pointer in the IR schema. */
interface Branch {
  schema: unknown;
  path: string;
}

/** The declaration fields that carry a tool's parameters in the chosen mode. */
export type GeminiParameters = Pick<
  GeminiFunctionDeclaration,
  'parameters' | 'parametersJsonSchema'
>;

/**
 * The parameters of a Gemini function declaration. `openapi` follows provider-rules §2.1 (table):
 * `$ref` inlined with recursion cut, `const` -> `enum`, type arrays -> `nullable`/`anyOf`, numeric
 * enums stringified with `format:'enum'`, unknown keywords dropped or moved into the description,
 * no empty `properties`, and no `parameters` at all for a tool without any. `jsonschema` sends
 * `parametersJsonSchema` minus `$schema`/`$id`. Either way, keys Gemini refuses are renamed.
 */
export function downgradeSchemaForGemini(
  parameters: JsonSchema,
  reporter: ToolReporter,
  options: { mode: GeminiSchemaMode; maxRecursion: number },
): GeminiParameters {
  if (options.mode === 'jsonschema') {
    const { $schema, $id, ...rest } = cloneJson(parameters);
    if ($schema !== undefined) reporter.note('/$schema', '$schema', { action: 'dropped' });
    if ($id !== undefined) reporter.note('/$id', '$id', { action: 'dropped' });
    return { parametersJsonSchema: renamePropertiesForWire(rest, 'gemini', reporter) };
  }
  const inlined = inlineRefs(cloneJson(parameters), reporter, {
    maxRecursion: options.maxRecursion,
  });
  const converted = new GeminiSchemaConverter(reporter).convert(inlined, '');
  if (converted?.properties === undefined || Object.keys(converted.properties).length === 0)
    return {};
  // Keys outside ^[A-Za-z_][A-Za-z0-9_]{0,63}$ are renamed; calls map them back.
  return {
    parameters: renamePropertiesForWire(converted as unknown as SchemaNode, 'gemini', reporter),
  };
}

class GeminiSchemaConverter {
  constructor(private readonly reporter: ToolReporter) {}

  /** Converts one node; `undefined` means "cannot exist on Gemini" (the caller drops it). */
  convert(input: unknown, path: string): GeminiSchema | undefined {
    if (typeof input === 'boolean' || !isSchemaNode(input)) {
      this.reporter.note(path, 'boolean schema', {
        action: 'dropped',
        detail: `${JSON.stringify(input)} has no Gemini form`,
      });
      return undefined;
    }
    let node = input;
    // An object with anyOf/oneOf of object shapes: merging keeps its properties (Gemini allows no siblings next to anyOf).
    if (
      (isSchemaNode(node['properties']) || node['type'] === 'object') &&
      hasObjectComposition(node, node)
    ) {
      node = mergeObjectComposition(node, { root: node, path, reporter: this.reporter });
    }
    node = this.mergeAllOf(node, path);
    if ('const' in node) {
      const { const: value, ...rest } = node;
      node = value === null ? { ...rest, type: 'null' } : { ...rest, enum: [value] };
    }
    let nullable = node['nullable'] === true;
    let types = typeList(node);
    if (types.includes('null')) {
      nullable = true;
      types = types.filter((type) => type !== 'null');
      if (types.length === 0 && node['anyOf'] === undefined && node['oneOf'] === undefined) {
        this.reporter.note(pointer(path, 'type'), 'type', {
          action: 'dropped',
          detail: "type 'null' alone cannot be declared on Gemini",
        });
        return undefined;
      }
    }
    const moved: Array<[string, unknown]> = [];
    const enumResult = this.convertEnum(node, { path, types, moved });
    if (enumResult.nullable) nullable = true;
    types = enumResult.types;

    const branches = this.branchesOf(node, path);
    if (branches !== undefined) return this.convertBranches(node, { path, branches, nullable });
    if (types.length > 1) {
      const { type: _type, description, title, nullable: _nullable, ...rest } = node;
      const members = types
        .map((type, index) => this.convert({ ...rest, type }, pointer(path, 'type', index)))
        .filter((member) => member !== undefined);
      return withOptional(
        { anyOf: members },
        { description, title, nullable: nullable || undefined },
      );
    }

    let type =
      types[0] ??
      (isSchemaNode(node['properties'])
        ? 'object'
        : node['items'] !== undefined || node['prefixItems'] !== undefined
          ? 'array'
          : undefined);
    // "type must be specified when not using one_of, any_of or all_of fields".
    if (type === undefined && RULES.subschemasNeedType) {
      type = 'string';
      this.reporter.note(pointer(path, 'type'), 'type', {
        action: 'rewritten',
        detail: 'a value of any type sent as a string: Gemini needs a type',
      });
    }
    const out: SchemaNode = {};
    if (type !== undefined) out['type'] = type.toUpperCase();
    if (nullable) out['nullable'] = true;
    if (enumResult.values !== undefined) out['enum'] = enumResult.values;
    if (enumResult.format !== undefined) out['format'] = enumResult.format;
    this.convertKeywords(node, { out, path, type, moved });
    if (type === 'object') this.convertProperties(node, { out, path });
    if (type === 'array') out['items'] = this.convertItems(node, path);
    return appendConstraintsToDescription(out, moved);
  }

  private mergeAllOf(node: SchemaNode, path: string): SchemaNode {
    const members = node['allOf'];
    if (!Array.isArray(members)) return node;
    const { allOf: _allOf, ...rest } = node;
    if (
      !members.every(
        (member) =>
          isSchemaNode(member) &&
          (isSchemaNode(member['properties']) || member['type'] === 'object'),
      )
    ) {
      // Members that constrain different keywords ({type:'string'} and {minLength:1}) merge exactly.
      const keys = members.flatMap((member) =>
        isSchemaNode(member)
          ? Object.keys(member).filter((key) => key !== 'description')
          : ['(not an object)'],
      );
      if (
        new Set(keys).size === keys.length &&
        keys.every((key) => !Object.hasOwn(rest, key) || key === 'description')
      ) {
        this.reporter.note(pointer(path, 'allOf'), 'allOf', {
          action: 'rewritten',
          detail: 'members merged (no keyword overlaps)',
        });
        return Object.assign({}, ...(members as SchemaNode[]), rest) as SchemaNode;
      }
      this.reporter.note(pointer(path, 'allOf'), 'allOf', {
        action: 'dropped',
        detail: 'allOf of overlapping non-object members has no Gemini form',
      });
      return rest;
    }
    const properties: SchemaNode = isSchemaNode(rest['properties'])
      ? { ...rest['properties'] }
      : {};
    const required = new Set(Array.isArray(rest['required']) ? rest['required'] : []);
    for (const member of members as SchemaNode[]) {
      for (const [key, value] of Object.entries(
        isSchemaNode(member['properties']) ? member['properties'] : {},
      ))
        setOwnProperty(properties, key, value);
      for (const key of Array.isArray(member['required']) ? member['required'] : [])
        required.add(key);
    }
    if (members.length > 1)
      this.reporter.note(pointer(path, 'allOf'), 'allOf', {
        action: 'rewritten',
        detail: 'object members merged',
      });
    return {
      ...rest,
      type: 'object',
      properties,
      ...(required.size > 0 ? { required: [...required] } : {}),
    };
  }

  private convertEnum(
    node: SchemaNode,
    context: { path: string; types: string[]; moved: Array<[string, unknown]> },
  ): { values?: string[]; format?: string; types: string[]; nullable: boolean } {
    const raw = node['enum'];
    if (!Array.isArray(raw)) return { types: context.types, nullable: false };
    const path = pointer(context.path, 'enum');
    const nullable = raw.includes(null);
    let values = raw.filter((value) => value !== null);
    if (values.length === 0) return { types: context.types, nullable };
    const valueType = typeOfValues(values);
    if (valueType === 'string') {
      if (values.includes('')) {
        values = values.filter((value) => value !== '');
        this.reporter.note(path, 'enum', {
          action: 'dropped',
          detail: 'the empty string is not allowed in a Gemini enum',
        });
      }
      return values.length === 0
        ? { types: ['string'], nullable }
        : { values: values as string[], types: ['string'], nullable };
    }
    if (valueType === 'integer' || valueType === 'number') {
      const type =
        context.types.find((candidate) => candidate === 'number' || candidate === 'integer') ??
        valueType;
      return { values: values.map(String), format: 'enum', types: [type], nullable };
    }
    if (valueType === 'boolean') {
      context.moved.push(['enum', values]);
      this.reporter.note(path, 'enum', { action: 'moved_to_description', detail: 'boolean enum' });
      return { types: ['boolean'], nullable };
    }
    this.reporter.note(path, 'enum', {
      action: 'rewritten',
      detail: 'values of mixed types sent as strings',
    });
    return {
      values: values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))),
      types: ['string'],
      nullable,
    };
  }

  /** The anyOf and oneOf branches, each with its own place in the IR schema (for the report). */
  private branchesOf(node: SchemaNode, path: string): Branch[] | undefined {
    const anyOf = listOf(node['anyOf']) ?? [];
    const oneOf = listOf(node['oneOf']) ?? [];
    if (oneOf.length > 0)
      this.reporter.note(pointer(path, 'oneOf'), 'oneOf', {
        action: 'rewritten',
        detail: 'oneOf sent as anyOf (looser)',
      });
    const branches = [
      ...anyOf.map((schema, index) => ({ schema, path: pointer(path, 'anyOf', index) })),
      ...oneOf.map((schema, index) => ({ schema, path: pointer(path, 'oneOf', index) })),
    ];
    return branches.length > 0 ? branches : undefined;
  }

  private convertBranches(
    node: SchemaNode,
    context: { path: string; branches: Branch[]; nullable: boolean },
  ): GeminiSchema | undefined {
    const { anyOf: _anyOf, oneOf: _oneOf, ...siblings } = node;
    let nullable = context.nullable;
    const members: GeminiSchema[] = [];
    context.branches.forEach((branch) => {
      if (isNullSchema(branch.schema)) {
        nullable = true;
        return;
      }
      const converted = this.convert(branch.schema, branch.path);
      if (converted !== undefined) members.push(converted);
    });
    if (members.length === 0) {
      this.reporter.note(pointer(context.path, 'anyOf'), 'anyOf', {
        action: 'dropped',
        detail: 'no branch has a Gemini form',
      });
      return undefined;
    }
    const description =
      typeof siblings['description'] === 'string' ? siblings['description'] : undefined;
    if (members.length === 1) {
      const { type: _type, nullable: _nullable, ...rest } = siblings;
      const base =
        Object.keys(rest).length > 0
          ? this.convert({ ...rest, type: memberJsonType(members[0]) }, context.path)
          : undefined;
      return withOptional(
        { ...base, ...members[0] },
        { description: description ?? members[0]?.description, nullable: nullable || undefined },
      );
    }
    for (const key of Object.keys(siblings)) {
      if (key === 'description' || key === 'title' || key === 'nullable' || key === 'type')
        continue;
      this.reporter.note(pointer(context.path, key), key, {
        action: 'dropped',
        detail: 'Gemini keeps only anyOf, description and nullable together',
      });
    }
    return withOptional(
      { anyOf: members },
      { description, title: siblings['title'], nullable: nullable || undefined },
    );
  }

  private convertKeywords(
    node: SchemaNode,
    context: {
      out: SchemaNode;
      path: string;
      type: string | undefined;
      moved: Array<[string, unknown]>;
    },
  ): void {
    const { out, path, type, moved } = context;
    for (const [key, value] of Object.entries(node)) {
      const at = pointer(path, key);
      if (HANDLED.has(key) && key !== 'format') continue;
      if (key === 'format') {
        if (out['format'] !== undefined) continue;
        if (RULES.formats?.[type?.toUpperCase() ?? '']?.has(String(value))) out['format'] = value;
        else {
          moved.push([key, value]);
          this.reporter.note(at, key, { action: 'moved_to_description' });
        }
      } else if (KEEP.has(key)) {
        out[key] = value;
      } else if (INT64.has(key)) {
        out[key] = String(value);
      } else if (MOVE.has(key)) {
        moved.push([key, value]);
        this.reporter.note(at, key, { action: 'moved_to_description' });
      } else if (key === 'examples' && Array.isArray(value) && value.length > 0) {
        out['example'] = value[0];
        if (value.length > 1)
          this.reporter.note(at, key, {
            action: 'rewritten',
            detail: 'only the first example is kept',
          });
      } else if (key === 'additionalProperties') {
        if (value !== true)
          this.reporter.note(at, key, {
            action: 'dropped',
            detail: `additionalProperties: ${JSON.stringify(value)}`,
          });
      } else {
        this.reporter.note(at, key, { action: 'dropped' });
      }
    }
  }

  private convertProperties(node: SchemaNode, context: { out: SchemaNode; path: string }): void {
    const properties: Record<string, GeminiSchema> = {};
    const source = isSchemaNode(node['properties']) ? node['properties'] : {};
    for (const [key, value] of Object.entries(source)) {
      const at = pointer(context.path, 'properties', key);
      const converted = this.convert(value, at);
      if (converted === undefined)
        this.reporter.note(at, 'properties', {
          action: 'dropped',
          detail: `property "${key}" has no Gemini form`,
        });
      else setOwnProperty(properties, key, converted);
    }
    if (Object.keys(properties).length > 0) context.out['properties'] = properties;
    const required = Array.isArray(node['required'])
      ? node['required'].filter((key): key is string => typeof key === 'string')
      : [];
    const kept = required.filter((key) => Object.hasOwn(properties, key));
    if (kept.length < required.length) {
      this.reporter.note(pointer(context.path, 'required'), 'required', {
        action: 'dropped',
        detail: `not declared: ${required.filter((key) => !kept.includes(key)).join(', ')}`,
      });
    }
    if (kept.length > 0) context.out['required'] = kept;
  }

  private convertItems(node: SchemaNode, path: string): GeminiSchema {
    const items = node['items'];
    const tuple = Array.isArray(items)
      ? items
      : items === undefined && Array.isArray(node['prefixItems'])
        ? node['prefixItems']
        : undefined;
    if (tuple !== undefined) {
      const first = JSON.stringify(tuple[0]);
      const same = tuple.length > 0 && tuple.every((member) => JSON.stringify(member) === first);
      this.reporter.note(pointer(path, 'prefixItems'), 'prefixItems', {
        action: 'rewritten',
        detail: same
          ? 'tuple sent as an array of its member type'
          : 'tuple sent as an array of strings',
      });
      return (
        (same ? this.convert(tuple[0], pointer(path, 'prefixItems', 0)) : undefined) ?? {
          type: 'STRING',
        }
      );
    }
    if (
      items === undefined ||
      items === true ||
      (isSchemaNode(items) && Object.keys(items).length === 0)
    ) {
      this.reporter.note(pointer(path, 'items'), 'items', {
        action: 'rewritten',
        detail: 'items of any type sent as strings (Gemini requires items)',
      });
      return { type: 'STRING' };
    }
    const converted = this.convert(items, pointer(path, 'items'));
    if (converted === undefined) {
      this.reporter.note(pointer(path, 'items'), 'items', {
        action: 'rewritten',
        detail: 'items sent as strings',
      });
      return { type: 'STRING' };
    }
    return converted;
  }
}

function isNullSchema(schema: unknown): boolean {
  if (!isSchemaNode(schema)) return false;
  const types = typeList(schema);
  return (types.length > 0 && types.every((type) => type === 'null')) || schema['const'] === null;
}

function memberJsonType(member: GeminiSchema | undefined): string | undefined {
  return member?.type?.toLowerCase();
}

function withOptional(base: SchemaNode, optional: Record<string, unknown>): GeminiSchema {
  const result: SchemaNode = { ...base };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) result[key] = value;
  return result;
}
