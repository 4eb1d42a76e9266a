import {
  cloneJson,
  describeArgumentErrors,
  isRecord,
  setOwnProperty,
  validateArguments,
  type ArgumentError,
  type ToolIR,
} from '@toolgate/toolir';
import { joinPointer } from '../shared/wire-boundary';
import { InvalidJsonError } from '../stream/partial-json-errors';
import {
  createPartialJsonParser,
  type JsonCut,
  type JsonSlot,
  type OpenJsonContainer,
} from '../stream/partial-json-parser';
import {
  arrayIsFull,
  plainSchema,
  requiredOf,
  slotSchema,
  type PlainSchema,
} from './cut-json-schema';

/** What was cut where a repair dropped an unfinished member. */
export type CutMemberKind = 'member_name' | 'no_value' | 'string' | 'number' | 'array';

/** What repairing cut-off arguments did: recorded with the call, so its record says how it was completed. */
export interface CutArgumentsRepair {
  /** Characters of argument text received before the cut. */
  received: number;
  /** JSON Pointers of the objects (and full arrays) closed, innermost first. */
  closed: string[];
  /** Literals completed from their first letters (`tr` -> `true`): the only value a prefix decides. */
  completed: Array<{ path: string; value: boolean | null }>;
  /**
   * Unfinished members left out: one whose key was cut (`member_name`, the path is its object's:
   * nothing says which member it was), or, for an optional property with no default and no fixed
   * set of values, one whose value never started (`no_value`) or was cut (`string`, `number`, or an
   * `array` that could have held more elements).
   */
  dropped: Array<{ path: string; cut: CutMemberKind }>;
  /** Defaults of missing optional properties, filled in the objects the repair closed. */
  filled: Array<{ path: string; value: unknown }>;
}

/** The outcome of `repairCutArguments`: the completed arguments, or why no completion is certain. */
export type RepairCutArgumentsResult =
  | { ok: true; arguments: Record<string, unknown>; repair: CutArgumentsRepair }
  | {
      ok: false;
      /** A sentence naming the path and why it cannot be completed, for the model and the record. */
      reason: string;
      /** Characters of argument text received before the cut. */
      received: number;
      /** The schema errors of the completed arguments, when the completion failed validation. */
      errors?: ArgumentError[];
    };

/** An open container with its slots from the root (`[]` for the root). */
interface Level {
  kind: OpenJsonContainer['kind'];
  path: JsonSlot[];
}

/** How deep a cut document a repair reads. */
const MAX_REPAIR_DEPTH = 64;

function levelsOf(open: readonly OpenJsonContainer[]): Level[] {
  const levels: Level[] = [];
  for (const container of open) {
    const parent = levels.at(-1);
    levels.push({
      kind: container.kind,
      path:
        parent === undefined || container.slot === undefined
          ? []
          : [...parent.path, container.slot],
    });
  }
  return levels;
}

/** A cut value waiting to be dropped from its container, or refused. */
interface PendingCut {
  slot: JsonSlot;
  cut: CutMemberKind;
}

const LITERAL_VALUES = { true: true, false: false, null: null } as const;

/**
 * Completes the argument text of a call that was cut off (a stream or response ended inside it)
 * where the schema leaves exactly one reading, then validates it with the IR's validator.
 *
 * Unambiguous, so repaired: closing an open object (its missing members are left out, as if the
 * model had not written them); completing a literal from its first letters; leaving out a member
 * whose key was cut (nothing says which it was); leaving out the value, cut or not yet started, of
 * an optional property that has no `default` and no `enum`/`const`; closing an array the schema
 * lets hold no more elements (`maxItems` reached, or all `prefixItems` given with `items: false`);
 * then filling the defaults of the optional properties missing from the objects it closed.
 *
 * Ambiguous, so refused: a cut or missing value of a required property (any continuation was
 * possible), of a property with a default (dropping it would run the default instead of what the
 * model was writing) or of an `enum`/`const` (a cut choice is not guessed from its prefix: `"on"`
 * may have been `"only"`); an array that could hold more elements (the rest is unknown; an optional
 * one is dropped whole as above); a property under `allOf`/`anyOf`/`oneOf`/conditionals (whether
 * it may be left out cannot be read from one node); and anything whose completion the validator
 * rejects.
 */
export function repairCutArguments(text: string, tool: ToolIR): RepairCutArgumentsResult {
  const received = text.length;
  const refuse = (reason: string, errors?: ArgumentError[]): RepairCutArgumentsResult => ({
    ok: false,
    reason,
    received,
    ...(errors === undefined ? {} : { errors }),
  });
  if (text.trim() === '') return refuse('no argument text arrived before the cut');
  const parser = createPartialJsonParser({ incomplete: 'partial' });
  let value: unknown;
  try {
    parser.push(text);
    value = parser.end();
  } catch (error) {
    if (error instanceof InvalidJsonError)
      return refuse(`the arguments are not valid JSON: ${error.message}`);
    throw error;
  }
  if (!isRecord(value)) return refuse('the arguments are not a JSON object');
  const report: CutArgumentsRepair = {
    received,
    closed: [],
    completed: [],
    dropped: [],
    filled: [],
  };
  const cut = parser.cut();
  if (cut !== undefined) {
    const problem = completeCut(value, cut, { tool, report });
    if (problem !== undefined) return refuse(problem);
  }
  const validation = validateArguments(tool, value);
  if (!validation.ok) {
    return refuse(
      `the completed arguments do not match the schema: ${describeArgumentErrors(validation.errors)}`,
      validation.errors,
    );
  }
  return { ok: true, arguments: value, repair: report };
}

/** Completes `value` in place along the cut; returns why it cannot be, if it cannot. */
function completeCut(
  value: Record<string, unknown>,
  cut: JsonCut,
  context: { tool: ToolIR; report: CutArgumentsRepair },
): string | undefined {
  const { report } = context;
  const root = context.tool.parameters;
  if (cut.open[0]?.kind !== 'object') return 'the arguments are not a JSON object';
  // Paths are built per level, so the work grows with the square of the depth: bounded.
  if (cut.open.length > MAX_REPAIR_DEPTH)
    return `the arguments are nested deeper than ${MAX_REPAIR_DEPTH} levels`;
  const open = levelsOf(cut.open);
  const schemas = schemasOf(root, open);
  const innermost = open.length - 1;
  let pending: PendingCut | undefined;
  // An array that was promised another element (after `[` or `,`) cannot be closed.
  let wantsMore = false;
  const at = cut.at;
  const last = open[innermost] as Level;
  switch (at.kind) {
    case 'nothing':
    case 'between':
      break;
    case 'member_name':
      // A complete key names the member, whose value never started; an unfinished one names nothing.
      if (at.key === undefined)
        report.dropped.push({ path: pointerOf(last.path), cut: 'member_name' });
      else pending = { slot: at.key, cut: 'no_value' };
      break;
    case 'value_start':
      if (last.kind === 'array') wantsMore = true;
      else pending = { slot: at.slot, cut: 'no_value' };
      break;
    case 'string':
    case 'number':
      if (at.slot === undefined) return 'the arguments are not a JSON object';
      pending = { slot: at.slot, cut: at.kind };
      break;
    case 'literal': {
      if (at.slot === undefined) return 'the arguments are not a JSON object';
      const completed = LITERAL_VALUES[at.literal];
      setSlot(containerAt(value, last.path), at.slot, completed);
      report.completed.push({ path: pointerOf([...last.path, at.slot]), value: completed });
      break;
    }
  }
  for (let level = innermost; level >= 0; level--) {
    const container = open[level] as Level;
    const node = containerAt(value, container.path);
    const schema = schemas[level];
    if (pending !== undefined && container.kind === 'object') {
      const problem = whyNotDroppable(root, { container, schema, slot: pending.slot });
      if (problem !== undefined)
        return `${problem}, and its ${describeCut(pending.cut)} was cut off`;
      delete (node as Record<string, unknown>)[pending.slot];
      report.dropped.push({ path: pointerOf([...container.path, pending.slot]), cut: pending.cut });
      pending = undefined;
    }
    const closes =
      container.kind === 'object' ||
      (pending === undefined && !wantsMore && arrayIsFull(schema, (node as unknown[]).length));
    wantsMore = false;
    if (closes) {
      report.closed.push(pointerOf(container.path));
      continue;
    }
    // An array whose end is unknown is a cut value of its own parent.
    const slot = container.path.at(-1);
    if (slot === undefined) return 'the arguments are not a JSON object';
    pending = { slot, cut: 'array' };
  }
  fillDefaults(value, { root, open, schemas, report });
  forgetInsideDropped(report);
  return undefined;
}

function describeCut(cut: CutMemberKind): string {
  switch (cut) {
    case 'string':
    case 'number':
      return `${cut} value`;
    case 'array':
      return 'array (more elements may have followed)';
    case 'member_name':
    case 'no_value':
      return 'member';
  }
}

/** Why the cut value at `slot` cannot be left out of its object; undefined when it can. */
function whyNotDroppable(
  root: Record<string, unknown>,
  at: { container: Level; schema: PlainSchema | undefined; slot: JsonSlot },
): string | undefined {
  const path = pointerOf([...at.container.path, at.slot]);
  if (at.schema === undefined)
    return `${path}: the schema of its object combines subschemas, so whether it may be left out cannot be told`;
  if (requiredOf(at.schema.node).has(String(at.slot))) return `${path} is required`;
  const property = slotSchema(root, at.schema, at.slot);
  if (property === undefined)
    return `${path}: its schema combines subschemas, so whether it may be left out cannot be told`;
  if (property.default !== undefined)
    return `${path} has a default, which would replace what the model was writing`;
  if (property.isChoice) return `${path} takes one of a fixed set of values, which is not guessed`;
  return undefined;
}

/** The readable schema of each open container, outermost first (undefined where it cannot be read). */
function schemasOf(
  root: Record<string, unknown>,
  open: readonly Level[],
): Array<PlainSchema | undefined> {
  const schemas: Array<PlainSchema | undefined> = [];
  for (const [level, container] of open.entries()) {
    const slot = container.path.at(-1);
    schemas.push(
      level === 0 || slot === undefined
        ? plainSchema(root, root)
        : slotSchema(root, schemas[level - 1], slot),
    );
  }
  return schemas;
}

/** Fills the defaults of optional properties missing from the objects the repair closed. */
function fillDefaults(
  value: Record<string, unknown>,
  context: {
    root: Record<string, unknown>;
    open: readonly Level[];
    schemas: ReadonlyArray<PlainSchema | undefined>;
    report: CutArgumentsRepair;
  },
): void {
  const { root, open, schemas, report } = context;
  const closed = new Set(report.closed);
  for (const [level, container] of open.entries()) {
    const schema = schemas[level];
    if (container.kind !== 'object' || schema === undefined) continue;
    if (!closed.has(pointerOf(container.path))) continue;
    const node = containerAt(value, container.path);
    const properties = schema.node['properties'];
    if (!isRecord(node) || !isRecord(properties)) continue;
    const required = requiredOf(schema.node);
    for (const name of Object.keys(properties)) {
      if (Object.hasOwn(node, name) || required.has(name)) continue;
      const property = plainSchema(root, properties[name]);
      if (property?.default === undefined) continue;
      const filled = cloneJson(property.default.value);
      setSlot(node, name, filled);
      report.filled.push({ path: pointerOf([...container.path, name]), value: filled });
    }
  }
}

/** What the repair did inside a member it then dropped whole is not part of the result. */
function forgetInsideDropped(report: CutArgumentsRepair): void {
  const gone = report.dropped
    .filter((entry) => entry.cut !== 'member_name')
    .map((entry) => `${entry.path}/`);
  const kept = (path: string): boolean => !gone.some((prefix) => path.startsWith(prefix));
  report.closed = report.closed.filter(kept);
  report.completed = report.completed.filter((entry) => kept(entry.path));
  report.filled = report.filled.filter((entry) => kept(entry.path));
  report.dropped = report.dropped.filter((entry) => kept(entry.path));
}

function containerAt(
  value: Record<string, unknown>,
  path: readonly JsonSlot[],
): Record<string, unknown> | unknown[] {
  let current: unknown = value;
  for (const slot of path) current = (current as Record<string, unknown>)[slot];
  return current as Record<string, unknown> | unknown[];
}

function setSlot(
  container: Record<string, unknown> | unknown[],
  slot: JsonSlot,
  value: unknown,
): void {
  if (Array.isArray(container)) container[slot as number] = value;
  else setOwnProperty(container, String(slot), value);
}

/** `/` for the arguments object itself, as argument errors say it. */
function pointerOf(path: readonly JsonSlot[]): string {
  return joinPointer('/', ...path);
}
