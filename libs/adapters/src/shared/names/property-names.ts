import { isRecord, setOwnProperty, type ToolIR } from '@toolgate/toolir';
import type { ToolReporter } from '../downgrade-report';
import { resolveLocalRef } from '../json-schema/resolve-local-ref';
import { isSchemaNode, mapSubschemas, pointer, type SchemaNode } from '../json-schema/schema-node';
import type { Provider } from '../provider';
import { mangleName } from './mangle-name';
import { PROVIDER_LIMITS } from '../provider-limits/provider-limits';

/**
 * The key a property is sent under on `provider`: unchanged when the wire takes it, else rewritten
 * like a tool name (invalid characters to `_`, a hash of the original appended), so that it maps
 * back exactly and distinct keys stay distinct.
 */
export function toWirePropertyName(key: string, provider: Provider): string {
  const rules = PROVIDER_LIMITS[provider].propertyKey;
  return rules === undefined ? key : mangleName(key, rules);
}

/**
 * The schema with every property key the wire refuses renamed (at any depth, `required` too),
 * each rename reported at its place in the IR schema.
 */
export function renamePropertiesForWire<TSchema extends SchemaNode>(
  schema: TSchema,
  provider: Provider,
  reporter: ToolReporter,
): TSchema {
  if (PROVIDER_LIMITS[provider].propertyKey === undefined) return schema;
  const visit = (node: unknown, path: string): unknown => {
    if (!isSchemaNode(node)) return node;
    const mapped = mapSubschemas(node, path, visit);
    const properties = mapped['properties'];
    if (!isSchemaNode(properties)) return mapped;
    const names = new Map<string, string>();
    const renamed: SchemaNode = {};
    for (const key of Object.keys(properties)) {
      const wire = toWirePropertyName(key, provider);
      if (wire !== key) {
        names.set(key, wire);
        reporter.note(pointer(path, 'properties', key), 'properties', {
          action: 'rewritten',
          detail: `"${key}" sent as "${wire}"; arguments are mapped back`,
        });
      }
      setOwnProperty(renamed, wire, properties[key]);
    }
    if (names.size === 0) return mapped;
    const required = Array.isArray(mapped['required'])
      ? (mapped['required'] as unknown[]).map((name) =>
          typeof name === 'string' ? (names.get(name) ?? name) : name,
        )
      : undefined;
    return { ...mapped, properties: renamed, ...(required === undefined ? {} : { required }) };
  };
  return visit(schema, '') as TSchema;
}

/** Whether a tool has a property the wire renames, decided once per tool and wire. */
const renames = new WeakMap<ToolIR, Map<Provider, boolean>>();

function hasRenamedProperty(tool: ToolIR, provider: Provider): boolean {
  let byProvider = renames.get(tool);
  if (byProvider === undefined) {
    byProvider = new Map<Provider, boolean>();
    renames.set(tool, byProvider);
  }
  const known = byProvider.get(provider);
  if (known !== undefined) return known;
  let found = false;
  const visit = (node: unknown): unknown => {
    if (found || !isSchemaNode(node)) return node;
    const properties = node['properties'];
    if (isSchemaNode(properties))
      found = Object.keys(properties).some((key) => toWirePropertyName(key, provider) !== key);
    return mapSubschemas(node, '', visit);
  };
  visit(tool.parameters);
  byProvider.set(provider, found);
  return found;
}

/**
 * The arguments under the tool's own property keys: keys the wire renamed (`toWirePropertyName`)
 * are mapped back at every depth the schema describes (objects, arrays, compositions, local
 * `$ref`s). Without the tool, or when nothing was renamed, the arguments are returned as they are.
 */
export function argumentsFromWire(
  args: Record<string, unknown>,
  tool: ToolIR | undefined,
  provider: Provider,
): Record<string, unknown> {
  if (tool === undefined || !hasRenamedProperty(tool, provider)) return args;
  const root = tool.parameters as SchemaNode;
  const back = (value: unknown, schema: unknown, depth: number): unknown => {
    if (depth > 64 || !isSchemaNode(schema)) return value;
    const shapes = shapesOf(schema, root);
    if (Array.isArray(value)) {
      const items = shapes.map((shape) => shape['items']).find(isSchemaNode);
      return items === undefined ? value : value.map((item) => back(item, items, depth + 1));
    }
    if (!isRecord(value)) return value;
    const properties = new Map<string, unknown>();
    for (const shape of shapes)
      if (isSchemaNode(shape['properties']))
        for (const [key, child] of Object.entries(shape['properties'])) properties.set(key, child);
    const fromWire = new Map(
      [...properties.keys()].map((key) => [toWirePropertyName(key, provider), key]),
    );
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const own = properties.has(key) ? key : (fromWire.get(key) ?? key);
      setOwnProperty(result, own, back(item, properties.get(own), depth + 1));
    }
    return result;
  };
  const mapped = back(args, root, 0);
  return isRecord(mapped) ? mapped : args;
}

/** A schema and the shapes it may take: its `$ref` target and its composition branches. */
function shapesOf(
  schema: SchemaNode,
  root: SchemaNode,
  seen = new Set<SchemaNode>(),
): SchemaNode[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const shapes = [schema];
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = resolveLocalRef(root, ref);
    if (isSchemaNode(target)) shapes.push(...shapesOf(target, root, seen));
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches))
      for (const branch of branches)
        if (isSchemaNode(branch)) shapes.push(...shapesOf(branch, root, seen));
  }
  return shapes;
}
