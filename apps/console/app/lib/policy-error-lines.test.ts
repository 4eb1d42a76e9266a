import { describe, expect, it } from 'vitest';
import { problem } from './testing/stub-fetch';
import { policyErrorLines } from './policy-error-lines';

describe('policyErrorLines', () => {
  it('reads the lines of the policy_errors extension', () => {
    const answer = {
      ...problem(400, 'The policy text is not valid Cedar for this gateway.'),
      policy_errors: [{ line: 3, column: 7, message: 'unexpected token' }, { message: 'no line' }],
    };
    expect([...policyErrorLines(answer)]).toEqual([3]);
  });

  it('finds none in a problem without it, or with a malformed one', () => {
    expect(policyErrorLines(problem(400, 'Bad request.')).size).toBe(0);
    expect(policyErrorLines({ ...problem(400, 'x'), policy_errors: 'oops' }).size).toBe(0);
  });
});
