import type { z } from 'zod';
import { ToolgateError, type Issue } from '../errors/toolgate-error';
import { behaviorAllowsInline } from '../execution/runs-inline';
import { checkJsonSchema } from '../json-schema/check-json-schema';
import { findUnguardedCycles } from '../json-schema/find-unguarded-cycles';
import { ToolIRSchema, type JsonSchema, type ToolIR } from './tool-ir';

/** Thrown by `parseToolIR`: `details.issues` lists every problem found, not just the first. */
export class ToolIRError extends ToolgateError<{ issues: Issue[] }> {
  constructor(issues: Issue[]) {
    const summary = issues
      .slice(0, 5)
      .map((issue) => `${issue.path}: ${issue.message}`)
      .join('; ');
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
    super('invalid_tool_ir', `Invalid ToolIR: ${summary}${more}`, { details: { issues } });
  }

  get issues(): Issue[] {
    return this.details?.issues ?? [];
  }
}

/** Renders a zod path as a JSON Pointer, the path format of every Toolgate issue. */
export function toJsonPointer(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '/';
  return path
    .map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}

/** Converts zod issues into Toolgate issues ({path, message}). */
export function issuesFromZod(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({ path: toJsonPointer(issue.path), message: issue.message }));
}

// A schema must be valid and also finite: a $ref cycle that never descends makes every validator recurse forever.
function schemaIssues(schema: JsonSchema, basePath: string): Issue[] {
  const metaIssues = checkJsonSchema(schema, basePath);
  return metaIssues.length > 0 ? metaIssues : findUnguardedCycles(schema, basePath);
}

function semanticIssues(tool: ToolIR): Issue[] {
  const issues: Issue[] = [];
  const rootType = tool.parameters['type'];
  if (rootType !== 'object') {
    issues.push({
      path: '/parameters/type',
      message: `the parameters schema must have type "object" at its root, got ${JSON.stringify(rootType)}`,
    });
  }
  issues.push(...schemaIssues(tool.parameters, '/parameters'));
  if (tool.outputSchema) issues.push(...schemaIssues(tool.outputSchema, '/outputSchema'));
  if (tool.behavior.readonly && tool.behavior.destructive) {
    issues.push({ path: '/behavior', message: 'a tool cannot be both readonly and destructive' });
  }
  if (tool.behavior.readonly && !tool.behavior.idempotent) {
    issues.push({
      path: '/behavior/idempotent',
      message: 'a readonly tool is idempotent: set idempotent to true',
    });
  }
  if (tool.constraints.execution === 'inline' && !behaviorAllowsInline(tool.behavior)) {
    issues.push({
      path: '/constraints/execution',
      message: 'inline execution needs a readonly, idempotent, non-destructive tool',
    });
  }
  const fallback = tool.fallback ?? [];
  if (fallback.includes(tool.name)) {
    issues.push({ path: '/fallback', message: 'a tool cannot be its own fallback' });
  }
  if (new Set(fallback).size !== fallback.length) {
    issues.push({ path: '/fallback', message: 'fallback tools must be unique' });
  }
  if ((tool.dependencies?.tools ?? []).includes(tool.name)) {
    issues.push({ path: '/dependencies/tools', message: 'a tool cannot depend on itself' });
  }
  const tags = tool.tags ?? [];
  if (new Set(tags).size !== tags.length)
    issues.push({ path: '/tags', message: 'tags must be unique' });
  return issues;
}

/**
 * Parses untrusted input into a ToolIR (defaults applied).
 * Throws `ToolIRError` listing every problem as {path, message}; never throws anything else.
 */
export function parseToolIR(input: unknown): ToolIR {
  const parsed = ToolIRSchema.safeParse(input);
  if (!parsed.success) throw new ToolIRError(issuesFromZod(parsed.error));
  let issues: Issue[];
  try {
    issues = semanticIssues(parsed.data);
  } catch (error) {
    // Schema checks recurse; a schema nested deeper than the stack is refused, never a crash.
    if (error instanceof RangeError)
      throw new ToolIRError([{ path: '/', message: 'is nested too deeply' }]);
    throw error;
  }
  if (issues.length > 0) throw new ToolIRError(issues);
  return parsed.data;
}

/** Like `parseToolIR`, but returns the issues instead of throwing. */
export function safeParseToolIR(
  input: unknown,
): { ok: true; value: ToolIR } | { ok: false; issues: Issue[] } {
  try {
    return { ok: true, value: parseToolIR(input) };
  } catch (error) {
    if (error instanceof ToolIRError) return { ok: false, issues: error.issues };
    throw error;
  }
}
