import { isRecord } from '@toolgate/toolir';
import { ToolReporter } from '../downgrade-report';
import { isRecursive } from '../json-schema/is-recursive';
import { checkSchemaLimits } from '../json-schema/schema-limits';
import { mapSubschemas, pointer, typeList, type SchemaNode } from '../json-schema/schema-node';
import { satisfiesRules, type NameRules } from '../names/name-rules';
import type { Provider } from '../provider';
import {
  PROVIDER_LIMITS,
  type ProviderLimits,
  type SchemaRules,
  type StrictRules,
} from './provider-limits';
import { checkRequestLimits } from './request-limits';
import { wireToolView, type WireToolView } from './wire-tool-view';

/** One thing in a wire tool list that the provider would refuse. */
export interface WireProblem {
  /** The tool's wire name (or its index when it has none), `*` for the whole request. */
  tool: string;
  /** JSON Pointer into the wire tool definition. */
  path: string;
  /** The PROVIDER_LIMITS entry it breaks (a limit by the name the conversion report gives it). */
  rule: string;
  message: string;
}

// Keywords that let a subschema go without a `type`: it is a composition or a reference.
const COMPOSITIONS = ['anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const'];

// A keyword's value as a message shows it.
function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function describeRules(rules: NameRules): string {
  return `at most ${rules.maxLength} characters of ${rules.allowed.source}, starting with ${rules.first.source}`;
}

class ToolChecker {
  readonly problems: WireProblem[] = [];
  // The schema being checked: the root has its own rules (checkRoot).
  private root: SchemaNode | undefined;

  private readonly limits: ProviderLimits;

  constructor(
    private readonly tool: string,
    provider: Provider,
  ) {
    this.limits = PROVIDER_LIMITS[provider];
  }

  add(path: string, rule: string, message: string): void {
    this.problems.push({ tool: this.tool, path: path || '/', rule, message });
  }

  checkTool(view: WireToolView): void {
    const { limits } = this;
    if (typeof view.name !== 'string' || !satisfiesRules(view.name, limits.toolName))
      this.add('/name', 'toolName', `the name must be ${describeRules(limits.toolName)}`);
    const max = limits.maxDescriptionLength;
    if (typeof view.description === 'string' && max !== undefined && view.description.length > max)
      this.add(
        view.descriptionPath,
        'maxDescriptionLength',
        `${view.description.length} characters, more than ${max}`,
      );
    for (const field of view.schemas) {
      const rules = field.jsonSchema === true ? limits.jsonSchema : limits.schema;
      if (rules === undefined) continue;
      if (!isRecord(field.schema)) {
        this.add(field.path, 'rootObject', 'the schema must be an object schema');
        continue;
      }
      this.checkRoot(field.schema, field.path, rules);
      this.root = field.schema;
      this.checkNode(field.schema, field.path, rules);
      if (view.strict && limits.strict !== undefined)
        this.checkStrict(field.schema, field.path, limits.strict);
    }
  }

  private checkRoot(root: SchemaNode, path: string, rules: SchemaRules): void {
    const objectType = rules.typeCase === 'upper' ? 'OBJECT' : 'object';
    if (root['type'] !== objectType)
      this.add(pointer(path, 'type'), 'rootObject', `the root must have type '${objectType}'`);
    for (const keyword of rules.rootRefuses)
      if (root[keyword] !== undefined)
        this.add(pointer(path, keyword), 'rootRefuses', `${keyword} is refused at the root`);
    if (rules.rootNeedsProperties && !isRecord(root['properties']))
      this.add(pointer(path, 'properties'), 'rootNeedsProperties', 'the root needs properties');
  }

  private checkNode(node: SchemaNode, path: string, rules: SchemaRules): void {
    const { limits } = this;
    if (rules.keywords !== undefined)
      for (const keyword of Object.keys(node))
        if (!rules.keywords.has(keyword))
          this.add(pointer(path, keyword), 'keywords', `${keyword} is not a keyword of this wire`);
    const types = typeList(node);
    if (
      rules.subschemasNeedType &&
      node !== this.root &&
      types.length === 0 &&
      !COMPOSITIONS.some((keyword) => node[keyword] !== undefined)
    )
      this.add(pointer(path, 'type'), 'subschemasNeedType', 'the subschema needs a type');
    const arrayType = rules.typeCase === 'upper' ? 'ARRAY' : 'array';
    if (rules.arraysNeedItems && types.includes(arrayType) && node['items'] === undefined)
      this.add(pointer(path, 'items'), 'arraysNeedItems', 'the array needs items');
    const format = node['format'];
    if (rules.formats !== undefined && format !== undefined) {
      const allowed = types.some((type) => rules.formats?.[type]?.has(show(format)));
      if (!allowed)
        this.add(pointer(path, 'format'), 'formats', `format ${show(format)} is refused`);
    }
    const values = node['enum'];
    if (
      rules.stringEnums &&
      Array.isArray(values) &&
      values.some((value) => typeof value !== 'string' || value === '')
    )
      this.add(pointer(path, 'enum'), 'stringEnums', 'enum values must be non-empty strings');
    const properties = node['properties'];
    if (isRecord(properties)) {
      const keys = Object.keys(properties);
      if (rules.nonEmptyProperties && keys.length === 0)
        this.add(pointer(path, 'properties'), 'nonEmptyProperties', 'properties must not be empty');
      for (const key of keys) {
        if (limits.propertyKey !== undefined && !satisfiesRules(key, limits.propertyKey))
          this.add(
            pointer(path, 'properties', key),
            'propertyKey',
            `the key must be ${describeRules(limits.propertyKey)}`,
          );
        if (rules.propertiesAreObjects && !isRecord(properties[key]))
          this.add(
            pointer(path, 'properties', key),
            'propertiesAreObjects',
            'a property schema must be an object',
          );
      }
      const required = Array.isArray(node['required']) ? (node['required'] as unknown[]) : [];
      if (rules.requiredNamesProperties)
        for (const [index, name] of required.entries())
          if (typeof name !== 'string' || !Object.hasOwn(properties, name))
            this.add(
              pointer(path, 'required', index),
              'requiredNamesProperties',
              'the name is not a key of properties',
            );
    }
    mapSubschemas(node, path, (child, childPath) => {
      if (isRecord(child)) this.checkNode(child, childPath, rules);
      return child;
    });
  }

  private checkStrict(root: SchemaNode, path: string, strict: StrictRules): void {
    const visit = (node: SchemaNode, at: string): void => {
      for (const keyword of Object.keys(node))
        if (!strict.keep.has(keyword))
          this.add(pointer(at, keyword), 'strict.keep', `${keyword} is refused in strict mode`);
      const format = node['format'];
      if (format !== undefined && !strict.formats.has(show(format)))
        this.add(pointer(at, 'format'), 'strict.formats', `format ${show(format)} is refused`);
      const properties = node['properties'];
      if (isRecord(properties)) {
        if (node['additionalProperties'] !== false)
          this.add(
            pointer(at, 'additionalProperties'),
            'strict.additionalProperties',
            'strict objects need additionalProperties: false',
          );
        const required = Array.isArray(node['required']) ? (node['required'] as unknown[]) : [];
        if (strict.requireAll)
          for (const key of Object.keys(properties))
            if (!required.includes(key))
              this.add(
                pointer(at, 'properties', key),
                'strict.requireAll',
                'strict mode needs every property required',
              );
      }
      mapSubschemas(node, at, (child, childPath) => {
        if (isRecord(child)) visit(child, childPath);
        return child;
      });
    };
    visit(root, path);
    if (strict.noRecursion && isRecursive(root))
      this.add(path, 'recursiveSchema', 'strict schemas may not recurse');
    if (strict.limits !== undefined) {
      const reporter = new ToolReporter(this.tool);
      checkSchemaLimits(root, reporter, strict.limits);
      for (const limit of reporter.limits)
        this.add(
          `${path}${limit.path === undefined || limit.path === '/' ? '' : limit.path}`,
          limit.limit,
          `${limit.actual} > ${limit.max}`,
        );
    }
  }
}

/**
 * Measures wire tool definitions (what `toolsToWire` returns as `definitions`, or a list taken
 * from a request) against PROVIDER_LIMITS, the table the converters follow: every problem the
 * provider would refuse, each at its place in the wire tool. Empty means the request would pass.
 */
export function checkWireTools(provider: Provider, definitions: readonly unknown[]): WireProblem[] {
  const problems: WireProblem[] = [];
  definitions.forEach((definition, index) => {
    const view = wireToolView(provider, definition);
    if (view === undefined) return;
    const checker = new ToolChecker(
      typeof view.name === 'string' ? view.name : String(index),
      provider,
    );
    checker.checkTool(view);
    problems.push(...checker.problems);
  });
  for (const limit of checkRequestLimits(provider, definitions))
    problems.push({
      tool: '*',
      path: '/',
      rule: limit.limit,
      message: `${limit.actual} > ${limit.max}`,
    });
  return problems;
}
