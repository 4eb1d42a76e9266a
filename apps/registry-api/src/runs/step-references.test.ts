import { describe, expect, it } from 'vitest';
import { findStepReferences, resolveStepReferences, type ReferencedCall } from './step-references';

const order: ReferencedCall = {
  arguments: { number: 42 },
  ok: true,
  result: { order: { id: 'ord_42', lines: [{ sku: 'a/b' }] } },
  error: undefined,
};
const lookup = (step: string, call: number) => (step === 'find' && call === 0 ? order : undefined);

describe('resolveStepReferences', () => {
  it('replaces references anywhere in the arguments with the values they point at', () => {
    expect(
      resolveStepReferences(
        {
          id: { $ref: { step: 'find', call: 0, pointer: '/result/order/id' } },
          nested: [{ sku: { $ref: { step: 'find', pointer: '/result/order/lines/0/sku' } } }],
          asked: { $ref: { step: 'find', call: 0, pointer: '/arguments/number' } },
          plain: 'kept',
        },
        lookup,
      ),
    ).toEqual({
      ok: true,
      arguments: { id: 'ord_42', nested: [{ sku: 'a/b' }], asked: 42, plain: 'kept' },
    });
  });

  it('passes a {"$literal": value} on as the value itself, a $ref-shaped one included', () => {
    const shaped = { $ref: { step: 'find', call: 0, pointer: '/result/order/id' } };
    const args = {
      literal: { $literal: shaped },
      nested: [{ $literal: { inner: shaped, n: 1 } }],
      // Only an object with the one key is a literal: this one is an ordinary object.
      ordinary: { $literal: 1, other: { $ref: { step: 'find', pointer: '/arguments/number' } } },
      resolved: shaped,
    };
    expect(resolveStepReferences(args, lookup)).toEqual({
      ok: true,
      arguments: {
        literal: shaped,
        nested: [{ inner: shaped, n: 1 }],
        ordinary: { $literal: 1, other: 42 },
        resolved: 'ord_42',
      },
    });
    // Plan validation checks the references a literal does not hold.
    expect(findStepReferences(args).map(({ path }) => path)).toEqual([
      '/ordinary/other',
      '/resolved',
    ]);
  });

  it('fails on a pointer that names nothing, or a call that is not there, naming which', () => {
    expect(
      resolveStepReferences({ id: { $ref: { step: 'find', pointer: '/result/nope' } } }, lookup),
    ).toEqual({
      ok: false,
      reason: {
        code: 'unresolved_reference',
        message: '"/result/nope" names nothing in call 0 of step "find"',
        retryable: false,
      },
    });
    expect(
      resolveStepReferences({ id: { $ref: { step: 'find', call: 3, pointer: '' } } }, lookup),
    ).toMatchObject({ ok: false, reason: { message: 'step "find" has no completed call 3' } });
  });

  it('finds references with their place in the arguments', () => {
    expect(
      findStepReferences({ 'a/b': [{ $ref: { step: 's', pointer: '/result' } }] }).map(
        (found) => found.path,
      ),
    ).toEqual(['/a~1b/0']);
  });
});
