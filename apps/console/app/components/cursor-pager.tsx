'use client';

import { useState } from 'react';

/** Cursor pagination for the API's `next_cursor` lists: a stack of cursors, so Previous goes back. */
export function useCursorPages(): {
  cursor: string | undefined;
  cursors: readonly string[];
  setCursors: (cursors: string[]) => void;
  reset: () => void;
} {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors[cursors.length - 1],
    cursors,
    setCursors,
    reset: () => setCursors([]),
  };
}

/** Previous / Next buttons for a page of a cursor-paginated list. */
export function CursorPager({
  cursors,
  setCursors,
  nextCursor,
}: {
  cursors: readonly string[];
  setCursors: (cursors: string[]) => void;
  nextCursor: string | null | undefined;
}) {
  return (
    <div className="actions">
      {cursors.length > 0 ? (
        <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
      ) : null}
      {nextCursor ? (
        <button type="button" onClick={() => setCursors([...cursors, nextCursor])}>
          Next page
        </button>
      ) : null}
    </div>
  );
}
