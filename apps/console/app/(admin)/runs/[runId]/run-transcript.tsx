'use client';

import { routes, TRANSCRIPT_FORMATS } from '@toolgate/contract';
import { useId, useState } from 'react';
import { oneOf } from '../../../lib/api';
import { JsonView } from '../../../components/json-view';
import { Loaded } from '../../../components/states';
import { useApi } from '../../../components/use-api';

/** The run's tool history as one provider's messages, as GET /v1/runs/{id}/transcript writes it. */
export function RunTranscript({ runId, live }: { runId: string; live: boolean }) {
  const id = useId();
  const [format, setFormat] = useState<(typeof TRANSCRIPT_FORMATS)[number]>('openai-chat');
  const transcript = useApi(
    routes.getRunTranscript,
    { params: { runId }, query: { format } },
    live ? { pollMs: 5000 } : {},
  );
  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Transcript</h3>
      <div className="field transcript-format">
        <label htmlFor={`${id}-format`}>Format</label>
        <select
          id={`${id}-format`}
          value={format}
          onChange={(event) => setFormat(oneOf(TRANSCRIPT_FORMATS, event.target.value, format))}
        >
          {TRANSCRIPT_FORMATS.map((entry) => (
            <option key={entry}>{entry}</option>
          ))}
        </select>
      </div>
      <Loaded state={transcript} what="the transcript">
        {(loaded) =>
          loaded.messages.length === 0 ? (
            <p className="hint">No messages yet: no step of the run has called a tool.</p>
          ) : (
            <JsonView value={loaded.messages} label={`Transcript (${loaded.format})`} />
          )
        }
      </Loaded>
    </section>
  );
}
