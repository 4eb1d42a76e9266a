import { describe, expect, it } from 'vitest';
import { parseToolIR, ToolIRError } from '../ir/parse-tool-ir';
import type { ToolIRInput } from '../ir/tool-ir';
import { compensationFor } from './compensation-call';
import {
  asEntityTag,
  resourceKeyOf,
  resourceVersionOf,
  withExpectedVersion,
} from './resource-version';

function tool(overrides: Partial<ToolIRInput>): ReturnType<typeof parseToolIR> {
  return parseToolIR({
    schema_version: '1.0',
    id: '7b0c4f5e-9f7a-4c3e-8d0e-2f1a6b5c4d3e',
    name: 'create_order',
    version: '1.0.0',
    description: 'Creates an order.',
    parameters: {
      type: 'object',
      properties: { sku: { type: 'string' }, order_id: { type: 'string' } },
    },
    behavior: { readonly: false, destructive: false, idempotent: false },
    constraints: { timeout_ms: 1000 },
    ...overrides,
  });
}

function issuesOf(input: Partial<ToolIRInput>): { path: string; message: string }[] {
  try {
    tool(input);
  } catch (error) {
    if (error instanceof ToolIRError) return error.issues;
    throw error;
  }
  return [];
}

describe('compensation', () => {
  const createOrder = tool({
    compensation: {
      tool: 'cancel_order',
      version: '^1',
      arguments: {
        order_id: { from: '/result/order_id' },
        sku: { from: '/arguments/sku' },
        reason: { value: 'compensation' },
      },
    },
  });

  it('builds the compensating call from the call and its result', () => {
    expect(
      compensationFor(createOrder, {
        arguments: { sku: 'SKU-1' },
        result: { order_id: 'o-42', total: 9 },
      }),
    ).toEqual({
      kind: 'compensate',
      tool: 'cancel_order',
      version: '^1',
      arguments: { order_id: 'o-42', sku: 'SKU-1', reason: 'compensation' },
    });
  });

  it('never guesses a missing value: the call is reported as one that cannot be undone', () => {
    expect(compensationFor(createOrder, { arguments: { sku: 'SKU-1' }, result: {} })).toEqual({
      kind: 'cannot_be_undone',
      reason:
        'the compensation\'s argument "order_id" reads /result/order_id, which the call does not have',
    });
  });

  it('reports a write without a declaration, and a read as nothing to undo', () => {
    expect(compensationFor(tool({}), { arguments: {}, result: {} })).toEqual({
      kind: 'cannot_be_undone',
      reason: 'create_order@1.0.0 declares no compensation',
    });
    const read = tool({ behavior: { readonly: true, destructive: false, idempotent: true } });
    expect(compensationFor(read, { arguments: {}, result: {} })).toEqual({
      kind: 'nothing_to_undo',
    });
  });

  it('copies values, so the compensating call shares nothing with the record', () => {
    const result = { order_id: { id: 'o-1' } };
    const plan = compensationFor(createOrder, { arguments: { sku: 's' }, result });
    expect(plan.kind === 'compensate' && plan.arguments['order_id']).not.toBe(result.order_id);
  });

  it('is refused on readonly tools, on itself, and with pointers outside the call', () => {
    expect(
      issuesOf({
        behavior: { readonly: true, destructive: false, idempotent: true },
        compensation: { tool: 'undo', arguments: {} },
      }).map((issue) => issue.path),
    ).toEqual(['/compensation']);
    expect(
      issuesOf({ compensation: { tool: 'create_order', arguments: {} } }).map(
        (issue) => issue.path,
      ),
    ).toEqual(['/compensation/tool']);
    expect(
      issuesOf({
        compensation: { tool: 'cancel_order', arguments: { id: { from: '/output/id' } } },
      })[0]?.message,
    ).toContain('/arguments/... or /result/...');
    expect(
      issuesOf({
        compensation: { tool: 'cancel_order', arguments: { id: {} as { value: unknown } } },
      }).length,
    ).toBeGreaterThan(0);
  });
});

describe('optimistic concurrency', () => {
  const updateOrder = tool({
    name: 'update_order',
    concurrency: {
      resource: { type: 'order', id: '/arguments/order_id' },
      version: '/result/etag',
      expected: { argument: '/if/version' },
    },
  });

  it('names the resource by type and id, and only by a string or number id', () => {
    expect(resourceKeyOf(updateOrder, { arguments: { order_id: 'o-1' } })).toBe('order:o-1');
    expect(resourceKeyOf(updateOrder, { arguments: { order_id: 7 } })).toBe('order:7');
    expect(resourceKeyOf(updateOrder, { arguments: { order_id: { a: 1 } } })).toBeUndefined();
    expect(resourceKeyOf(tool({}), { arguments: { order_id: 'o-1' } })).toBeUndefined();
  });

  it('reads the version from the result, or from a declared response header', () => {
    const call = { arguments: { order_id: 'o-1' }, result: { etag: 'v3' } };
    expect(resourceVersionOf(updateOrder, call)).toBe('v3');
    const byHeader = tool({
      concurrency: {
        resource: { type: 'order', id: '/arguments/order_id' },
        version: { header: 'ETag' },
      },
    });
    expect(resourceVersionOf(byHeader, call, { etag: '"v4"' })).toBe('"v4"');
    expect(resourceVersionOf(byHeader, call)).toBeUndefined();
  });

  it('writes the expected version into a copy of the arguments, or into a header as an entity tag', () => {
    const args = { order_id: 'o-1' };
    expect(withExpectedVersion(updateOrder, args, 'v3')).toEqual({
      arguments: { order_id: 'o-1', if: { version: 'v3' } },
      headers: {},
    });
    expect(args).toEqual({ order_id: 'o-1' });
    const byHeader = tool({
      concurrency: {
        resource: { type: 'order', id: '/arguments/order_id' },
        version: { header: 'ETag' },
        expected: { header: 'If-Match' },
      },
    });
    expect(withExpectedVersion(byHeader, args, 'v3').headers).toEqual({ 'If-Match': '"v3"' });
    expect(asEntityTag('W/"v3"')).toBe('W/"v3"');
    expect(asEntityTag('"v3"')).toBe('"v3"');
  });

  it('refuses an expected version on a readonly tool', () => {
    expect(
      issuesOf({
        behavior: { readonly: true, destructive: false, idempotent: true },
        concurrency: {
          resource: { type: 'order', id: '/arguments/order_id' },
          version: '/result/etag',
          expected: { header: 'If-Match' },
        },
      }).map((issue) => issue.path),
    ).toEqual(['/concurrency/expected']);
  });
});
