import { cloneJson } from '@toolgate/toolir';
import type { ToolReporter } from '../downgrade-report';
import { resolveLocalRef, refName } from './resolve-local-ref';
import { isSchemaNode, mapSubschemas, pointer, type SchemaNode } from './schema-node';

/** How deep a recursive `$ref` is expanded before it is cut. */
export interface InlineRefsOptions {
  /** Expansions of the same ref on one branch before the cut; 1 expands a recursive type once. */
  maxRecursion: number;
}

/**
 * Replaces every same-document `$ref` by a copy of its target (sibling keys override, as Vercel
 * does), removes `$defs`/`definitions`, and cuts recursion after `maxRecursion` expansions with
 * `{type:'object', description:'(recursive: X)'}`: each cut and each unresolvable ref is reported.
 */
export function inlineRefs(
  root: SchemaNode,
  reporter: ToolReporter,
  options: InlineRefsOptions,
): SchemaNode {
  const hasDefinitions = root['$defs'] !== undefined || root['definitions'] !== undefined;
  const visit = (schema: unknown, path: string, stack: readonly string[]): unknown => {
    if (!isSchemaNode(schema)) return schema;
    const ref = schema['$ref'];
    if (typeof ref === 'string') {
      const { $ref: _ref, ...siblings } = schema;
      const target = resolveLocalRef(root, ref);
      if (!isSchemaNode(target) && typeof target !== 'boolean') {
        reporter.note(path, '$ref', { action: 'dropped', detail: `unresolvable reference ${ref}` });
        return visit(siblings, path, stack);
      }
      const depth = stack.filter((entry) => entry === ref).length;
      if (depth >= options.maxRecursion) {
        reporter.note(path, '$ref', {
          action: 'rewritten',
          detail: `recursive reference ${ref} cut after ${options.maxRecursion} expansion(s)`,
        });
        return { type: 'object', description: `(recursive: ${refName(ref)})` };
      }
      const base = typeof target === 'boolean' ? (target ? {} : { not: {} }) : cloneJson(target);
      const { $defs: _defs, definitions: _definitions, ...body } = base;
      return visit({ ...body, ...siblings }, path, [...stack, ref]);
    }
    return mapSubschemas(stripDefinitions(schema), path, (child, childPath) =>
      visit(child, childPath, stack),
    );
  };
  const result = visit(stripDefinitions(root), '', []) as SchemaNode;
  if (hasDefinitions) {
    reporter.note(pointer('', root['$defs'] === undefined ? 'definitions' : '$defs'), '$defs', {
      action: 'rewritten',
      detail: 'definitions inlined at every $ref',
    });
  }
  return result;
}

function stripDefinitions(node: SchemaNode): SchemaNode {
  if (node['$defs'] === undefined && node['definitions'] === undefined) return node;
  const { $defs: _defs, definitions: _definitions, ...rest } = node;
  return rest;
}
