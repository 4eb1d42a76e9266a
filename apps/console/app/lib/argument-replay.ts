import type { PartialArgumentStates } from '@toolgate/contract';
import { formatJsonPointer, isRecord, parseJsonPointer } from '@toolgate/toolir';

/** The arguments as they stood at one moment of the stream. */
export interface ReplayFrame {
  /** Milliseconds from the call's first argument delta. */
  offset_ms: number;
  /** What had completed by then: the final arguments cut down to the completed values. */
  arguments: Record<string, unknown>;
  /** The pointers this moment completed (none for the first frame, before anything completed). */
  completed: readonly string[];
}

const LEFT_OUT = Symbol('left out');

/**
 * The final value cut down to what had completed: a completed pointer keeps its whole value, a
 * container with a completed value inside keeps those, anything else is left out. Values complete
 * in document order, so an array keeps a prefix and its indexes stay right.
 */
function cutDown(
  value: unknown,
  tokens: string[],
  seen: { completed: ReadonlySet<string>; opened: ReadonlySet<string> },
): unknown {
  const pointer = formatJsonPointer(tokens);
  if (seen.completed.has(pointer)) return value;
  if (!seen.opened.has(pointer)) return LEFT_OUT;
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const [index, item] of value.entries()) {
      const cut = cutDown(item, [...tokens, String(index)], seen);
      if (cut === LEFT_OUT) break;
      kept.push(cut);
    }
    return kept;
  }
  if (isRecord(value)) {
    const kept: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const cut = cutDown(item, [...tokens, key], seen);
      // defineProperty: a `__proto__` argument stays an own key, as JSON has it.
      if (cut !== LEFT_OUT)
        Object.defineProperty(kept, key, {
          value: cut,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return kept;
  }
  return LEFT_OUT;
}

/** Adds every container the pointer lies in (the whole arguments included) to `opened`. */
function openContainersOf(pointer: string, opened: Set<string>): void {
  const tokens = parseJsonPointer(pointer) ?? [];
  for (let depth = 0; depth < tokens.length; depth++)
    opened.add(formatJsonPointer(tokens.slice(0, depth)));
}

/**
 * How a call's arguments grew, one frame per recorded moment (the first frame is the empty start),
 * rebuilt from the call's final arguments and the pointers each moment completed. Pointers that
 * name nothing in the final arguments (a value the gateway dropped or renamed) show nothing.
 */
export function replayFrames(
  finalArguments: Record<string, unknown>,
  states: PartialArgumentStates,
): ReplayFrame[] {
  const frames: ReplayFrame[] = [{ offset_ms: 0, arguments: {}, completed: [] }];
  const completed = new Set<string>();
  const opened = new Set<string>();
  for (const entry of states.entries) {
    for (const pointer of entry.pointers) {
      completed.add(pointer);
      openContainersOf(pointer, opened);
    }
    const cut = cutDown(finalArguments, [], { completed, opened });
    frames.push({
      offset_ms: entry.offset_ms,
      arguments: isRecord(cut) ? cut : {},
      completed: entry.pointers,
    });
  }
  return frames;
}
