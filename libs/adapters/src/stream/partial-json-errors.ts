import { ToolgateError } from '@toolgate/toolir';

/** Where and why a JSON document stopped being valid. */
export interface InvalidJsonDetails {
  /** Offset (UTF-16 code units) of the offending character in the whole document, across all chunks. */
  position: number;
  /** The offending character, or `end of input`. */
  found: string;
  /** What the grammar allowed there: single characters (`,` `}` `"`) or names (`value`, `digit`, `hex digit`, `end of input`). */
  expected: readonly string[];
}

/** The document is not JSON: thrown by `push()` at the chunk where it first becomes invalid. */
export class InvalidJsonError extends ToolgateError<'invalid_json'> {
  declare readonly details: InvalidJsonDetails;

  constructor(details: InvalidJsonDetails) {
    super(
      'invalid_json',
      `Invalid JSON at position ${details.position}: found ${describeFound(details.found)}, expected ${describeExpected(details.expected)}`,
      { details },
    );
  }
}

/** Where a JSON document stopped before it was complete. */
export interface IncompleteJsonDetails {
  /** The document's length: the position where more input was needed. */
  position: number;
  /** What the grammar still required at that position. */
  expected: readonly string[];
}

/** The document ended before its top-level value was complete: thrown by `end()`. */
export class IncompleteJsonError extends ToolgateError<'incomplete_arguments'> {
  declare readonly details: IncompleteJsonDetails;

  constructor(details: IncompleteJsonDetails) {
    super(
      'incomplete_arguments',
      `JSON ended early at position ${details.position}: expected ${describeExpected(details.expected)}`,
      { details },
    );
  }
}

function describeFound(found: string): string {
  // Quote real characters so a control character or a space is visible in logs.
  return found === 'end of input' ? found : JSON.stringify(found);
}

function describeExpected(expected: readonly string[]): string {
  return expected.map((token) => (token.length === 1 ? JSON.stringify(token) : token)).join(' or ');
}
