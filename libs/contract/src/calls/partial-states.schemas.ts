import { z } from 'zod';

/**
 * The bounds of one call's partial states, shared by the SDK (which stops recording at them and
 * marks the record `truncated`) and the gateway (which refuses a record past them with a 400).
 */
export const PARTIAL_STATES_LIMITS = {
  /** Most entries (deltas that completed at least one value) one call's record holds. */
  maxEntries: 256,
  /** Most bytes of JSON Pointers (UTF-8, summed over every entry) one call's record holds. */
  maxBytes: 16_384,
  /** Longest a call may have streamed, in ms from its first delta: one day. */
  maxOffsetMs: 86_400_000,
} as const;

/** RFC 6901: `""` (the whole document) or `/`-prefixed tokens where `~` is only `~0` or `~1`. */
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

export const PartialStateEntrySchema = z
  .strictObject({
    offset_ms: z.number().int().min(0).max(PARTIAL_STATES_LIMITS.maxOffsetMs).meta({
      description:
        "Milliseconds from the call's first argument delta to the delta that completed these values.",
    }),
    pointers: z
      .array(z.string().regex(JSON_POINTER, 'must be a JSON Pointer (RFC 6901)'))
      .min(1)
      .meta({
        description:
          'JSON Pointers of the argument values this delta completed, innermost first; `""` is the whole arguments object.',
      }),
  })
  .meta({ id: 'PartialStateEntry' });
export type PartialStateEntry = z.infer<typeof PartialStateEntrySchema>;

/** The bytes a record's pointers take, as `PARTIAL_STATES_LIMITS.maxBytes` counts them. */
export function partialStateBytes(pointers: readonly string[]): number {
  let bytes = 0;
  for (const pointer of pointers) bytes += utf8.encode(pointer).byteLength;
  return bytes;
}
const utf8 = new TextEncoder();

export const PartialArgumentStatesSchema = z
  .strictObject({
    entries: z.array(PartialStateEntrySchema).max(PARTIAL_STATES_LIMITS.maxEntries),
    truncated: z.boolean().meta({
      description:
        'The stream went on past the limits: later completions were not recorded (the call itself is whole).',
    }),
  })
  .superRefine((states, context) => {
    const bytes = partialStateBytes(states.entries.flatMap((entry) => entry.pointers));
    if (bytes > PARTIAL_STATES_LIMITS.maxBytes) {
      context.addIssue({
        code: 'custom',
        path: ['entries'],
        message: `the pointers take ${bytes} bytes, more than the ${PARTIAL_STATES_LIMITS.maxBytes} a call may record`,
      });
    }
    states.entries.forEach((entry, index) => {
      const previous = states.entries[index - 1];
      if (previous !== undefined && entry.offset_ms < previous.offset_ms) {
        context.addIssue({
          code: 'custom',
          path: ['entries', index, 'offset_ms'],
          message: 'entries must be in the order they happened (offsets never decrease)',
        });
      }
    });
  })
  .meta({
    id: 'PartialArgumentStates',
    description: `How a streamed call's arguments grew: after each argument delta that completed values, their JSON Pointers and the time since the call's first delta. At most ${PARTIAL_STATES_LIMITS.maxEntries} entries and ${PARTIAL_STATES_LIMITS.maxBytes} bytes of pointers.`,
  });
export type PartialArgumentStates = z.infer<typeof PartialArgumentStatesSchema>;
