// @vitest-environment happy-dom
import { routes, type ToolListItem } from '@toolgate/contract';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { respond, stubFetch } from '../lib/testing/stub-fetch';
import { useApi } from './use-api';

const TOOL: ToolListItem = {
  id: '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11',
  team_id: '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90',
  name: 'orders.refund',
  description: '',
  tags: [],
  visibility: 'private',
  release: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  badges: { destructive: false, imported_from: null, deprecated: [] },
};
let restore: () => void = () => undefined;

afterEach(() => {
  cleanup();
  restore();
});

describe('useApi', () => {
  it('waits on a null request, then loads the route and reloads when the URL changes', async () => {
    const network = stubFetch(
      respond(['GET', '/v1/tools?limit=1'], 200, { items: [TOOL], next_cursor: 'c2' }),
      respond(['GET', '/v1/tools?cursor=c2&limit=1'], 200, { items: [], next_cursor: null }),
    );
    restore = network.restore;
    const initialProps: { cursor?: string; ready: boolean } = { ready: false };
    const { result, rerender } = renderHook(
      ({ cursor, ready }: { cursor?: string; ready: boolean }) =>
        useApi(routes.listTools, ready ? { query: { cursor, limit: 1 } } : null),
      { initialProps },
    );
    expect(result.current.loading).toBe(false);
    expect(network.sent).toHaveLength(0);

    rerender({ ready: true });
    await waitFor(() => expect(result.current.data?.items[0]?.name).toBe('orders.refund'));
    expectTypeOf(result.current.data?.next_cursor).toEqualTypeOf<string | null | undefined>();
    // A new request object with the same URL (every render makes one) does not load again.
    rerender({ ready: true });
    expect(network.sent).toHaveLength(1);

    rerender({ ready: true, cursor: 'c2' });
    await waitFor(() => expect(result.current.data?.items).toEqual([]));
    expect(network.sent.map((request) => request.url)).toEqual([
      '/v1/tools?limit=1',
      '/v1/tools?cursor=c2&limit=1',
    ]);
  });
});
