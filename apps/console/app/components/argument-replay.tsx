'use client';

import type { Call, PartialArgumentStates } from '@toolgate/contract';
import { useMemo, useState } from 'react';
import { replayFrames } from '../lib/argument-replay';
import { JsonView } from './json-view';

/**
 * Replays how a streamed call's arguments grew: a scrubber over the moments the client recorded,
 * showing the arguments as they stood at each one and what that moment completed.
 */
export function ArgumentReplay({
  finalArguments,
  states,
}: {
  finalArguments: Call['arguments'];
  states: PartialArgumentStates;
}) {
  const frames = useMemo(() => replayFrames(finalArguments, states), [finalArguments, states]);
  const last = frames.length - 1;
  // Starts at the end: the arguments as they were finally sent, scrub back to see them grow.
  const [position, setPosition] = useState(last);
  const index = Math.min(position, last);
  const frame = frames[index] ?? frames[0];
  if (frame === undefined) return null;
  const moment = `+${frame.offset_ms} ms`;
  return (
    <section className="card argument-replay" aria-labelledby="replay-heading">
      <h3 id="replay-heading">How the arguments grew</h3>
      <div className="replay-controls">
        <button
          type="button"
          onClick={() => setPosition(Math.max(0, index - 1))}
          disabled={index === 0}
        >
          Previous
        </button>
        <input
          type="range"
          min={0}
          max={last}
          step={1}
          value={index}
          aria-label="Moment of the stream"
          aria-valuetext={`${moment}, moment ${index} of ${last}`}
          onChange={(event) => setPosition(Number(event.target.value))}
        />
        <button
          type="button"
          onClick={() => setPosition(Math.min(last, index + 1))}
          disabled={index === last}
        >
          Next
        </button>
      </div>
      <p aria-live="polite">
        <output>{moment}</output> · moment {index} of {last}
        {frame.completed.length === 0 ? (
          ' · before any value completed'
        ) : (
          <>
            {' · completed '}
            {frame.completed.map((pointer, position) => (
              <span key={pointer}>
                {position === 0 ? '' : ', '}
                <code>{pointer === '' ? '(all arguments)' : pointer}</code>
              </span>
            ))}
          </>
        )}
      </p>
      <JsonView value={frame.arguments} label="Arguments at this moment" />
      {states.truncated ? (
        <p className="hint">
          The stream went on past what a call may record: later moments are not shown, the
          call&apos;s arguments above the replay are whole.
        </p>
      ) : null}
    </section>
  );
}
