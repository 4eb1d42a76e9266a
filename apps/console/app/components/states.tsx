'use client';

import type { ReactNode } from 'react';
import { ApiError, describeError } from '../lib/api';

export function Loading({ what }: { what: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** An error with what to do about it: sign in again, ask an admin, or retry. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  let next = 'Retry, and if it keeps failing check the API logs.';
  if (error instanceof ApiError) {
    if (error.status === 401) next = 'Your session ended: sign in again.';
    else if (error.status === 403) next = 'Your role does not allow this; ask an admin for access.';
    else if (error.status === 404) next = 'It may have been removed; go back to the list.';
    else if (error.status === 0 || error.status === 502)
      next = 'Start the registry API (npm start) and retry.';
  }
  return (
    <div className="state state-error" role="alert">
      <p>
        <strong>Something went wrong.</strong> {describeError(error)}
      </p>
      <p>{next}</p>
      {error instanceof ApiError && error.status === 401 ? (
        <a className="button" href="/sign-in">
          Sign in
        </a>
      ) : onRetry ? (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p>
        <strong>{title}</strong>
      </p>
      {children}
    </div>
  );
}

/** Renders loading / error / content for one useApi result. */
export function Loaded<TResult>({
  state,
  what,
  children,
}: {
  state: { data: TResult | undefined; error: unknown; loading: boolean; reload: () => void };
  what: string;
  children: (data: TResult) => ReactNode;
}) {
  if (state.error !== undefined && state.data === undefined)
    return <ErrorState error={state.error} onRetry={state.reload} />;
  if (state.data === undefined) return <Loading what={what} />;
  return <>{children(state.data)}</>;
}
