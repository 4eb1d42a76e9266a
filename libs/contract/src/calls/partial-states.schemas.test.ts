import { describe, expect, it } from 'vitest';
import { CreateCallsSchema, MAX_CALLS_PER_REQUEST } from './calls.schemas';
import {
  PARTIAL_STATES_LIMITS,
  PartialArgumentStatesSchema,
  partialStateBytes,
} from './partial-states.schemas';

const GROWN = {
  entries: [
    { offset_ms: 0, pointers: ['/city'] },
    { offset_ms: 41, pointers: ['/days/0', '/days/1', '/days'] },
    { offset_ms: 42, pointers: ['/unit', ''] },
  ],
  truncated: false,
};

function issuesOf(value: unknown): string[] {
  const parsed = PartialArgumentStatesSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
}

describe('PartialArgumentStatesSchema', () => {
  it('reads a record of completed pointers and their offsets', () => {
    expect(PartialArgumentStatesSchema.parse(GROWN)).toEqual(GROWN);
  });

  it('counts the UTF-8 bytes of the pointers', () => {
    expect(partialStateBytes(['/a', '/ü'])).toBe(2 + 3);
  });

  it('refuses what is not a JSON Pointer, offsets that go back and fields it does not know', () => {
    expect(issuesOf({ entries: [{ offset_ms: 0, pointers: ['city'] }], truncated: false })).toEqual(
      ['must be a JSON Pointer (RFC 6901)'],
    );
    expect(issuesOf({ entries: [{ offset_ms: 0, pointers: ['/a~2'] }], truncated: false })).toEqual(
      ['must be a JSON Pointer (RFC 6901)'],
    );
    expect(
      issuesOf({
        entries: [
          { offset_ms: 5, pointers: ['/a'] },
          { offset_ms: 4, pointers: ['/b'] },
        ],
        truncated: false,
      }),
    ).toEqual(['entries must be in the order they happened (offsets never decrease)']);
    expect(issuesOf({ ...GROWN, values: {} })).toHaveLength(1);
    expect(
      issuesOf({ entries: [{ offset_ms: -1, pointers: ['/a'] }], truncated: false }),
    ).toHaveLength(1);
    expect(issuesOf({ entries: [{ offset_ms: 1, pointers: [] }], truncated: false })).toHaveLength(
      1,
    );
  });

  it('refuses a record past its entry or byte limit', () => {
    const entry = { offset_ms: 1, pointers: ['/a'] };
    const tooMany = Array.from({ length: PARTIAL_STATES_LIMITS.maxEntries + 1 }, () => entry);
    expect(issuesOf({ entries: tooMany, truncated: true })).toHaveLength(1);
    const long = `/${'x'.repeat(PARTIAL_STATES_LIMITS.maxBytes)}`;
    expect(issuesOf({ entries: [{ offset_ms: 0, pointers: [long] }], truncated: false })).toEqual([
      `the pointers take ${PARTIAL_STATES_LIMITS.maxBytes + 1} bytes, more than the ${PARTIAL_STATES_LIMITS.maxBytes} a call may record`,
    ]);
  });
});

describe('partial_states of POST /v1/calls', () => {
  const body = { provider: 'openai-chat', payload: { choices: [] } };

  it('is optional, keyed by call id', () => {
    expect(CreateCallsSchema.safeParse(body).success).toBe(true);
    expect(
      CreateCallsSchema.safeParse({ ...body, partial_states: { call_1: GROWN } }).success,
    ).toBe(true);
  });

  it('holds at most one record per call a request may carry', () => {
    const byCall = Object.fromEntries(
      Array.from({ length: MAX_CALLS_PER_REQUEST + 1 }, (_, index) => [`call_${index}`, GROWN]),
    );
    expect(CreateCallsSchema.safeParse({ ...body, partial_states: byCall }).success).toBe(false);
    expect(CreateCallsSchema.safeParse({ ...body, partial_states: { '': GROWN } }).success).toBe(
      false,
    );
  });
});
