'use client';

import type { Actors } from '@toolgate/contract';
import { useState } from 'react';

/**
 * An actor as people know it: the key's name and team, or the console user's name, with the
 * recorded id (`key:<uuid>`, `user:<email>`) on hover and a button that copies it.
 */
export function ActorName({
  actor,
  actors,
}: {
  actor: string | null | undefined;
  actors: Actors | undefined;
}) {
  const [copied, setCopied] = useState(false);
  if (actor === null || actor === undefined) return <span className="hint">—</span>;
  const known = actors?.[actor];
  const label = known?.name ?? actor;
  const copy = () => {
    // Without a clipboard (plain http off localhost) the id stays readable in the title.
    navigator.clipboard?.writeText(actor).then(
      () => setCopied(true),
      () => undefined,
    );
  };
  return (
    <span className="actor" title={actor}>
      <span className="actor-name">{label}</span>
      {known?.team_name ? <span className="hint"> · {known.team_name}</span> : null}
      <button
        type="button"
        className="copy-button"
        aria-label={`Copy ${actor}`}
        title={copied ? 'Copied' : `Copy ${actor}`}
        onClick={copy}
      >
        {copied ? 'copied' : 'copy'}
      </button>
    </span>
  );
}
