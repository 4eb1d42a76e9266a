'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';

export type UrlFilters<TKey extends string> = Record<TKey, string>;

/**
 * A page's filters kept in its URL (`?status=failed&tool=x`), so a view can be shared and
 * survives a reload. Empty values leave the URL. Next.js picks up `history.replaceState`, so
 * `useSearchParams` elsewhere sees the change without a navigation (and without a refetch of the
 * page). Pages using it render inside `<Suspense>`, as Next.js asks of `useSearchParams`.
 */
export function useUrlFilters<TKey extends string>(
  keys: readonly TKey[],
): [UrlFilters<TKey>, (next: Partial<UrlFilters<TKey>>) => void] {
  const params = useSearchParams();
  const [filters, setFilters] = useState<UrlFilters<TKey>>(
    () => Object.fromEntries(keys.map((key) => [key, params?.get(key) ?? ''])) as UrlFilters<TKey>,
  );
  const update = useCallback(
    (next: Partial<UrlFilters<TKey>>) => {
      setFilters((current) => {
        const merged = { ...current, ...next };
        const query = new URLSearchParams(window.location.search);
        for (const key of keys) {
          const value = merged[key];
          if (value === '') query.delete(key);
          else query.set(key, value);
        }
        const search = query.toString();
        window.history.replaceState(
          window.history.state,
          '',
          `${window.location.pathname}${search === '' ? '' : `?${search}`}`,
        );
        return merged;
      });
    },
    // the keys are a constant list per page
    [],
  );
  return [filters, update];
}
