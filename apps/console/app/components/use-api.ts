'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { apiFetch } from '../lib/api';

export interface ApiState<TResult> {
  data: TResult | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * GETs `path` (null waits) and reloads when it changes; with `pollMs` it refreshes in the background
 * without flashing the loading state, which keeps live lists calm.
 */
export function useApi<TResult>(
  path: string | null,
  options: { pollMs?: number } = {},
): ApiState<TResult> {
  const [data, setData] = useState<TResult | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(path !== null);
  const [generation, setGeneration] = useState(0);
  const loadedPath = useRef<string | null>(null);

  useEffect(() => {
    if (path === null) return undefined;
    const controller = new AbortController();
    const load = (background: boolean) => {
      if (!background) setLoading(true);
      apiFetch<TResult>(path, { signal: controller.signal }).then(
        (result) => {
          loadedPath.current = path;
          setData(result);
          setError(undefined);
          setLoading(false);
        },
        (failure: unknown) => {
          if (controller.signal.aborted) return;
          setError(failure);
          setLoading(false);
        },
      );
    };
    load(loadedPath.current === path);
    const timer =
      options.pollMs === undefined ? undefined : setInterval(() => load(true), options.pollMs);
    return () => {
      controller.abort();
      if (timer !== undefined) clearInterval(timer);
    };
  }, [path, generation, options.pollMs]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data, error, loading, reload };
}
