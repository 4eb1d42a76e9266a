'use client';

import { formatRelative, formatTime } from '../lib/format';

/**
 * The one way an instant is shown: how long ago (or from now), with the absolute time in the
 * reader's time zone on hover. `now` is taken at render; the page's own reloads refresh it.
 */
export function When({ at, prefix }: { at: string | null | undefined; prefix?: string }) {
  if (!at) return <span className="hint">—</span>;
  return (
    <time dateTime={at} title={formatTime(at)}>
      {prefix ? `${prefix} ` : ''}
      {formatRelative(at, Date.now())}
    </time>
  );
}
