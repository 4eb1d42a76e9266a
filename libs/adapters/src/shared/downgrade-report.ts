/** What happened to a keyword or constraint that a wire format cannot carry as is. */
export type DowngradeAction = 'dropped' | 'rewritten' | 'moved_to_description';

/** One keyword or constraint of one tool's schema that the wire could not carry unchanged. */
export interface DowngradeEntry {
  /** The ToolIR name of the tool. */
  tool: string;
  /** JSON Pointer into the tool's ToolIR `parameters` (or `/outputSchema…`, `/name`, `/description`). */
  path: string;
  /** The JSON Schema keyword (or tool field) affected. */
  keyword: string;
  action: DowngradeAction;
  /** A human-readable note: what the value was or what it became. */
  detail?: string;
}

/** A provider limit a schema exceeds: the request will likely be rejected unless the tool is trimmed. */
export interface LimitViolation {
  /** The ToolIR name of the tool, or `*` for a limit over the whole request. */
  tool: string;
  /** Which limit, e.g. `maxNestingDepth`. */
  limit: string;
  actual: number;
  max: number;
  /** JSON Pointer of the deepest or largest offender, when there is one. */
  path?: string;
}

/** How one tool name was written on the wire, so calls can be mapped back. */
export interface NameMapping {
  /** The ToolIR name. */
  name: string;
  /** The name sent to the provider (equal to `name` when it was already valid). */
  wireName: string;
}

/** Everything a conversion changed or could not carry: nothing is lost silently. */
export interface DowngradeReport {
  entries: DowngradeEntry[];
  /** Every tool's wire name, in the order of the tools. */
  names: NameMapping[];
  /** Provider limits that the converted schemas exceed. */
  limits: LimitViolation[];
}

/** Collects the report entries of one tool while its schema is converted. */
export class ToolReporter {
  readonly entries: DowngradeEntry[] = [];
  readonly limits: LimitViolation[] = [];

  constructor(readonly tool: string) {}

  /** Records one change to the schema at `path`. */
  note(path: string, keyword: string, change: { action: DowngradeAction; detail?: string }): void {
    this.entries.push({
      tool: this.tool,
      path: path === '' ? '/' : path,
      keyword,
      action: change.action,
      ...(change.detail === undefined ? {} : { detail: change.detail }),
    });
  }

  /** Records a provider limit the schema exceeds. */
  exceeds(violation: Omit<LimitViolation, 'tool'>): void {
    this.limits.push({ tool: this.tool, ...violation });
  }
}

/** Notes request-level options the wire has no field for (entries with tool `*`). */
export function noteUnsupportedOptions(
  report: DowngradeReport,
  unsupported: {
    strict?: boolean | undefined;
    parallelCalls?: boolean | undefined;
    /** Whether any tool was asked to be deferred. */
    deferLoading?: boolean | undefined;
    wire: string;
  },
): void {
  if (unsupported.strict === true) {
    report.entries.push({
      tool: '*',
      path: '/',
      keyword: 'strict',
      action: 'dropped',
      detail: `${unsupported.wire} has no strict schema mode`,
    });
  }
  if (unsupported.parallelCalls === false) {
    report.entries.push({
      tool: '*',
      path: '/',
      keyword: 'parallelCalls',
      action: 'dropped',
      detail: `${unsupported.wire} cannot turn off parallel calls`,
    });
  }
  if (unsupported.deferLoading === true) {
    report.entries.push({
      tool: '*',
      path: '/',
      keyword: 'defer_loading',
      action: 'dropped',
      detail: `${unsupported.wire} has no deferred loading: every tool is sent loaded`,
    });
  }
}

/** An empty report, to be filled tool by tool. */
export function emptyReport(): DowngradeReport {
  return { entries: [], names: [], limits: [] };
}
