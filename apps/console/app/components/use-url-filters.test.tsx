// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { SearchParamsContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useUrlFilters } from './use-url-filters';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

function withUrl(search: string) {
  window.history.replaceState(null, '', `/calls${search}`);
  return ({ children }: { children: ReactNode }) => (
    <SearchParamsContext.Provider value={new URLSearchParams(search)}>
      {children}
    </SearchParamsContext.Provider>
  );
}

describe('useUrlFilters', () => {
  it('starts from the URL, so a shared or reloaded view shows the same filters', () => {
    const { result } = renderHook(() => useUrlFilters(['status', 'tool'] as const), {
      wrapper: withUrl('?status=failed&other=kept'),
    });
    expect(result.current[0]).toEqual({ status: 'failed', tool: '' });
  });

  it('writes changes to the URL, drops emptied filters and keeps parameters it does not own', () => {
    const { result } = renderHook(() => useUrlFilters(['status', 'tool'] as const), {
      wrapper: withUrl('?status=failed&other=kept'),
    });
    act(() => result.current[1]({ status: '', tool: 'refund_order' }));
    expect(result.current[0]).toEqual({ status: '', tool: 'refund_order' });
    expect(window.location.pathname).toBe('/calls');
    expect(new URLSearchParams(window.location.search).toString()).toBe(
      'other=kept&tool=refund_order',
    );
  });
});
