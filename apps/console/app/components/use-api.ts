'use client';

import { routeUrl } from '@toolgate/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiRequest, type ApiRequest, type ApiResult, type ApiRoute } from '../lib/api';

export interface ApiState<TResult> {
  data: TResult | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** A route useApi may load: reading only, since it reloads and polls at will. */
export type ReadRoute = ApiRoute & { method: 'get' };

/**
 * GETs `route` with `request` (null waits) and reloads when the request's URL changes; with
 * `pollMs` it refreshes in the background without flashing the loading state, which keeps live
 * lists calm.
 */
export function useApi<TRoute extends ReadRoute>(
  route: TRoute,
  request: ApiRequest<TRoute> | null,
  options: { pollMs?: number } = {},
): ApiState<ApiResult<TRoute>> {
  const [data, setData] = useState<ApiResult<TRoute> | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(request !== null);
  const [generation, setGeneration] = useState(0);
  const loadedUrl = useRef<string | null>(null);
  // A GET is all in its URL, so the URL (not the request object, new on every render) decides
  // when to load again; the effect then sends the request of the render that changed it.
  const url = request === null ? null : routeUrl(route, request);

  useEffect(() => {
    const current = request;
    if (url === null || current === null) return undefined;
    const controller = new AbortController();
    const load = (background: boolean) => {
      if (!background) setLoading(true);
      apiRequest(route, { ...current, signal: controller.signal }).then(
        (result) => {
          loadedUrl.current = url;
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
    load(loadedUrl.current === url);
    const timer =
      options.pollMs === undefined ? undefined : setInterval(() => load(true), options.pollMs);
    return () => {
      controller.abort();
      if (timer !== undefined) clearInterval(timer);
    };
  }, [route, url, generation, options.pollMs]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data, error, loading, reload };
}
