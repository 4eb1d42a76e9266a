import {
  canonicalJson,
  isRecord,
  ToolCacheSchema,
  ToolInputFormatSchema,
  type ToolCache,
  type ToolInputFormat,
} from '@toolgate/toolir';
import {
  diffInputSchemas,
  isBreakingChange,
  type SchemaChange,
  type SchemaChangeKind,
} from './json-schema-diff';

/** What the input diff reads of a version: its stored ToolIR (any shape) or a parsed one. */
type StoredIr = unknown;

function fieldOf(ir: StoredIr, key: string): unknown {
  return isRecord(ir) ? ir[key] : undefined;
}

/** A stored version's input format; absent (every version before free-text tools) is JSON. */
function inputFormatOf(ir: StoredIr): ToolInputFormat {
  const parsed = ToolInputFormatSchema.safeParse(fieldOf(ir, 'input_format'));
  return parsed.success ? parsed.data : { type: 'json_schema' };
}

function change(kind: SchemaChangeKind, path: string, message: string): SchemaChange {
  return { kind, path, breaking: isBreakingChange(kind), message };
}

/** How the input format and grammar changed: JSON <-> free text, and a grammar added, removed or changed. */
function diffInputFormats(before: ToolInputFormat, after: ToolInputFormat): SchemaChange[] {
  if (before.type !== after.type) {
    return [
      change(
        'input_format_changed',
        '/input_format/type',
        `the input changed from ${before.type === 'text' ? 'free text' : 'JSON arguments'} to ${after.type === 'text' ? 'free text' : 'JSON arguments'}`,
      ),
    ];
  }
  if (before.type !== 'text' || after.type !== 'text') return [];
  const old = before.grammar;
  const next = after.grammar;
  if (old === undefined && next === undefined) return [];
  if (old === undefined) {
    return [
      change(
        'grammar_added',
        '/input_format/grammar',
        `a ${next?.syntax ?? ''} grammar now constrains the input`,
      ),
    ];
  }
  if (next === undefined) {
    return [
      change(
        'grammar_removed',
        '/input_format/grammar',
        'the input is no longer constrained by a grammar',
      ),
    ];
  }
  if (old.syntax === next.syntax && old.definition === next.definition) return [];
  return [
    change(
      'grammar_changed',
      '/input_format/grammar',
      `the ${next.syntax} grammar changed; whether it accepts every input the old one did cannot be proven, so it counts as breaking: publish a new major version`,
    ),
  ];
}

/** Whether a version opts in to completing cut-off arguments (absent, as before the field existed, is off). */
function repairsCutArguments(ir: StoredIr): boolean {
  return fieldOf(ir, 'repair_cut_arguments') === true;
}

/** Turning cut-off argument repair on or off: a minor change, since complete calls are untouched. */
function diffCutArgumentRepair(before: StoredIr, after: StoredIr): SchemaChange[] {
  const was = repairsCutArguments(before);
  const is = repairsCutArguments(after);
  if (was === is) return [];
  return [
    is
      ? change(
          'cut_argument_repair_enabled',
          '/repair_cut_arguments',
          'calls whose arguments were cut off are now completed where the schema allows it and run',
        )
      : change(
          'cut_argument_repair_disabled',
          '/repair_cut_arguments',
          'calls whose arguments were cut off are no longer completed: they are answered incomplete_arguments',
        ),
  ];
}

/** Declarations compared whole (added, removed or changed), with what each one says. */
const WHOLE_DECLARATIONS = [
  {
    field: 'compensation',
    kind: 'compensation_changed',
    what: 'how a run undoes its calls (compensation)',
  },
  {
    field: 'concurrency',
    kind: 'concurrency_changed',
    what: 'which resource version its writes expect (concurrency)',
  },
] as const;

function diffWholeDeclarations(before: StoredIr, after: StoredIr): SchemaChange[] {
  return WHOLE_DECLARATIONS.flatMap(({ field, kind, what }) => {
    const old = fieldOf(before, field);
    const next = fieldOf(after, field);
    if (old === undefined && next === undefined) return [];
    if (old !== undefined && next !== undefined && canonicalJson(old) === canonicalJson(next))
      return [];
    const verb =
      old === undefined ? 'now declares' : next === undefined ? 'no longer declares' : 'changed';
    return [change(kind, `/${field}`, `the tool ${verb} ${what}`)];
  });
}

/** A stored version's result cache; absent, or unreadable in a version stored before the field, is none. */
function cacheOf(ir: StoredIr): ToolCache | undefined {
  const parsed = ToolCacheSchema.safeParse(fieldOf(ir, 'cache'));
  return parsed.success ? parsed.data : undefined;
}

function describeCache(cache: ToolCache): string {
  const key = cache.key === undefined ? 'all arguments' : cache.key.join(', ');
  return `${cache.ttl_ms} ms, keyed on ${key}, ${cache.scope === 'team' ? 'per team' : 'shared by every team'}`;
}

/** A result cache added, removed or retuned: a minor change, since every call is still valid and answered alike. */
function diffCache(before: StoredIr, after: StoredIr): SchemaChange[] {
  const was = cacheOf(before);
  const is = cacheOf(after);
  if (was === undefined && is === undefined) return [];
  if (was === undefined && is !== undefined) {
    return [
      change('cache_added', '/cache', `results are now served from a cache (${describeCache(is)})`),
    ];
  }
  if (is === undefined) {
    return [
      change(
        'cache_removed',
        '/cache',
        'results are no longer served from a cache: every call executes',
      ),
    ];
  }
  if (was !== undefined && canonicalJson(was) === canonicalJson(is)) return [];
  return [change('cache_changed', '/cache', `the result cache is now ${describeCache(is)}`)];
}

/**
 * Compares the inputs of two versions: the input format and grammar first, then the parameters
 * schemas (JSON Schema diff), then whether cut-off arguments are repaired and results cached. A change is breaking
 * when an existing caller's call may now fail.
 */
export function diffToolInputs(before: StoredIr, after: StoredIr): SchemaChange[] {
  return [
    ...diffInputFormats(inputFormatOf(before), inputFormatOf(after)),
    ...diffCutArgumentRepair(before, after),
    ...diffWholeDeclarations(before, after),
    ...diffCache(before, after),
    ...diffInputSchemas(fieldOf(before, 'parameters'), fieldOf(after, 'parameters'), '/parameters'),
  ];
}
