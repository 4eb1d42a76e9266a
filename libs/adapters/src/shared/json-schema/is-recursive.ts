import { resolveLocalRef } from './resolve-local-ref';
import { isSchemaNode, mapSubschemas, type SchemaNode } from './schema-node';

// Strict tools reject recursive schemas (documented limit): a $ref reached again while resolving itself.
export function isRecursive(root: SchemaNode): boolean {
  const visit = (node: unknown, stack: readonly string[]): boolean => {
    if (!isSchemaNode(node)) return false;
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      if (stack.includes(ref)) return true;
      if (visit(resolveLocalRef(root, ref), [...stack, ref])) return true;
    }
    let found = false;
    mapSubschemas(node, '', (child) => {
      found ||= visit(child, stack);
      return child;
    });
    return found;
  };
  return visit(root, []);
}
