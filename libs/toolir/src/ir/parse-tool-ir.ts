import type { z } from 'zod';
import { ToolgateError, type Issue } from '../errors/toolgate-error';
import { behaviorAllowsInline } from '../execution/runs-inline';
import { checkJsonSchema } from '../json-schema/check-json-schema';
import { findUnguardedCycles } from '../json-schema/find-unguarded-cycles';
import { textInputIssues } from '../input-format/text-input';
import { ToolIRSchema, type JsonSchema, type ToolIR } from './tool-ir';

/** Thrown by `parseToolIR`: `details.issues` lists every problem found, not just the first. */
export class ToolIRError extends ToolgateError<'invalid_tool_ir'> {
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
  try {
    const metaIssues = checkJsonSchema(schema, basePath);
    return metaIssues.length > 0 ? metaIssues : findUnguardedCycles(schema, basePath);
  } catch (error) {
    // The checks recurse; a schema nested deeper than the stack is one issue of that schema, so the
    // other fields' problems are still reported beside it.
    if (error instanceof RangeError) return [{ path: basePath, message: 'is nested too deeply' }];
    throw error;
  }
}

/**
 * The fields of an input that are valid on their own. The cross-field and schema checks run on
 * whatever is valid, so a definition with a bad version still gets its parameters schema checked
 * in the same error: its author fixes everything in one round.
 */
type ValidFields = Partial<ToolIR>;

function validFieldsOf(input: unknown): ValidFields {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return {};
  const record = input as Record<string, unknown>;
  // Each value kept was parsed by the schema of its own field, so the record is a valid partial ToolIR.
  const fields: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(ToolIRSchema.shape)) {
    if (!Object.hasOwn(record, key)) continue;
    const parsed = (schema as z.ZodType).safeParse(record[key]);
    if (parsed.success) fields[key] = parsed.data;
  }
  return fields;
}

function semanticIssues(tool: ValidFields): Issue[] {
  const issues: Issue[] = [];
  if (tool.parameters) {
    const rootType = tool.parameters['type'];
    if (rootType !== 'object') {
      issues.push({
        path: '/parameters/type',
        message: `the parameters schema must have type "object" at its root, got ${JSON.stringify(rootType)}`,
      });
    }
    issues.push(...schemaIssues(tool.parameters, '/parameters'));
  }
  if (tool.outputSchema) issues.push(...schemaIssues(tool.outputSchema, '/outputSchema'));
  issues.push(...textInputIssues(tool));
  if (tool.behavior) issues.push(...behaviorIssues(tool.behavior, tool.constraints));
  issues.push(...cutArgumentRepairIssues(tool));
  issues.push(...writeDeclarationIssues(tool));
  issues.push(...cacheIssues(tool));
  const fallback = tool.fallback ?? [];
  if (tool.name !== undefined && fallback.includes(tool.name)) {
    issues.push({ path: '/fallback', message: 'a tool cannot be its own fallback' });
  }
  if (new Set(fallback).size !== fallback.length) {
    issues.push({ path: '/fallback', message: 'fallback tools must be unique' });
  }
  if (tool.name !== undefined && (tool.dependencies?.tools ?? []).includes(tool.name)) {
    issues.push({ path: '/dependencies/tools', message: 'a tool cannot depend on itself' });
  }
  const tags = tool.tags ?? [];
  if (new Set(tags).size !== tags.length)
    issues.push({ path: '/tags', message: 'tags must be unique' });
  return issues;
}

function behaviorIssues(
  behavior: ToolIR['behavior'],
  constraints: ValidFields['constraints'],
): Issue[] {
  const issues: Issue[] = [];
  if (behavior.readonly && behavior.destructive) {
    issues.push({ path: '/behavior', message: 'a tool cannot be both readonly and destructive' });
  }
  if (behavior.readonly && !behavior.idempotent) {
    issues.push({
      path: '/behavior/idempotent',
      message: 'a readonly tool is idempotent: set idempotent to true',
    });
  }
  if (constraints?.execution === 'inline' && !behaviorAllowsInline(behavior)) {
    issues.push({
      path: '/constraints/execution',
      message: 'inline execution needs a readonly, idempotent, non-destructive tool',
    });
  }
  return issues;
}

/**
 * A cached answer replaces an execution, which is only sound when executing changes nothing and
 * gives the same answer twice: a cache on any other tool would skip effects its callers expect.
 */
function cacheIssues(tool: ValidFields): Issue[] {
  const cache = tool.cache;
  if (cache === undefined) return [];
  const issues: Issue[] = [];
  if (tool.behavior !== undefined && !(tool.behavior.readonly && tool.behavior.idempotent)) {
    issues.push({
      path: '/cache',
      message:
        'a result cache is allowed only on a readonly, idempotent tool version: remove cache or declare the behavior readonly and idempotent',
    });
  }
  const key = cache.key ?? [];
  if (new Set(key).size !== key.length) {
    issues.push({ path: '/cache/key', message: 'cache key arguments must be unique' });
  }
  return issues;
}

/**
 * Repairing cut-off arguments guesses nothing, but it still runs a call the model did not finish:
 * never for a tool whose effect cannot be undone, and never for free text, which can end anywhere.
 */
function cutArgumentRepairIssues(tool: ValidFields): Issue[] {
  if (tool.repair_cut_arguments !== true) return [];
  const issues: Issue[] = [];
  if (tool.behavior?.destructive === true) {
    issues.push({
      path: '/repair_cut_arguments',
      message: 'a destructive tool never runs cut-off arguments: remove repair_cut_arguments',
    });
  }
  if (tool.input_format?.type === 'text') {
    issues.push({
      path: '/repair_cut_arguments',
      message: 'a free-text input has no structure to complete: remove repair_cut_arguments',
    });
  }
  return issues;
}

/**
 * Compensation undoes a write and concurrency guards one: a readonly tool has nothing to undo and
 * nothing to expect, and a tool cannot be its own undo.
 */
function writeDeclarationIssues(tool: ValidFields): Issue[] {
  const issues: Issue[] = [];
  const readonly = tool.behavior?.readonly === true;
  if (tool.compensation !== undefined) {
    if (readonly)
      issues.push({
        path: '/compensation',
        message:
          'a readonly tool changes nothing, so it has nothing to compensate: remove compensation',
      });
    if (tool.name !== undefined && tool.compensation.tool === tool.name)
      issues.push({ path: '/compensation/tool', message: 'a tool cannot compensate itself' });
  }
  if (tool.concurrency?.expected !== undefined && readonly)
    issues.push({
      path: '/concurrency/expected',
      message:
        'a readonly tool writes nothing, so it expects no version: remove concurrency.expected',
    });
  return issues;
}

/**
 * Parses untrusted input into a ToolIR (defaults applied).
 * Throws `ToolIRError` listing every problem as {path, message} — the field problems and the
 * schema and cross-field problems together, in one error; never throws anything else.
 */
export function parseToolIR(input: unknown): ToolIR {
  const parsed = ToolIRSchema.safeParse(input);
  let issues: Issue[];
  try {
    issues = parsed.success
      ? semanticIssues(parsed.data)
      : [...issuesFromZod(parsed.error), ...semanticIssues(validFieldsOf(input))];
  } catch (error) {
    // A backstop: any other check that runs out of stack is refused, never a crash.
    if (error instanceof RangeError)
      throw new ToolIRError([{ path: '/', message: 'is nested too deeply' }]);
    throw error;
  }
  if (!parsed.success || issues.length > 0) throw new ToolIRError(issues);
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
