'use client';

import { useId, useState, type FormEvent } from 'react';
import { routes, type Release, type ReleaseSummary } from '@toolgate/contract';
import { ApiError, apiRequest, describeError } from '../../lib/api';

export interface CanaryFormProps {
  toolId: string;
  /** Published versions that may become the canary. */
  versions: string[];
  release: ReleaseSummary | null;
  disabled?: boolean;
  onSaved?: (release: Release) => void;
}

/** Sets the canary version and the share of callers that get it (PUT /release/canary). */
export function CanaryForm({
  toolId,
  versions,
  release,
  disabled = false,
  onSaved,
}: CanaryFormProps) {
  const id = useId();
  const stable = release?.stable_version ?? null;
  const candidates = versions.filter((version) => version !== stable);
  const [version, setVersion] = useState(release?.canary_version ?? candidates[0] ?? '');
  const [percent, setPercent] = useState(release?.canary_percent ?? 10);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    if (version === '') {
      setError('Choose the version to roll out as canary.');
      return;
    }
    if (stable === null) {
      setError('Set a stable version first: the canary is measured against it.');
      return;
    }
    setError(null);
    setBusy(true);
    apiRequest(routes.setCanaryVersion, {
      params: { toolId },
      body: { version, percent },
    }).then(
      (next) => {
        setBusy(false);
        setSaved(
          `Canary ${next.canary_version ?? version} now gets ${next.canary_percent}% of callers.`,
        );
        onSaved?.(next);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure instanceof ApiError ? describeError(failure) : String(failure));
      },
    );
  };

  return (
    <form className="form" onSubmit={submit} aria-label="Canary">
      <div className="field">
        <label htmlFor={`${id}-version`}>Canary version</label>
        <select
          id={`${id}-version`}
          value={version}
          onChange={(event) => setVersion(event.target.value)}
          disabled={disabled}
        >
          {candidates.length === 0 ? <option value="">No other published version</option> : null}
          {candidates.map((candidate) => (
            <option key={candidate} value={candidate}>
              {candidate}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-percent`}>Canary percentage</label>
        <div className="slider">
          <input
            id={`${id}-percent`}
            type="range"
            min={0}
            max={100}
            step={1}
            value={percent}
            disabled={disabled}
            aria-valuetext={`${percent}%`}
            onChange={(event) => setPercent(Number(event.target.value))}
          />
          <output htmlFor={`${id}-percent`}>{percent}%</output>
        </div>
        <p className="hint">
          {percent}% of callers get {version || 'the canary'}; the rest stay on{' '}
          {stable ?? 'no stable version yet'}.
        </p>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {saved ? (
        <p className="success" role="status">
          {saved}
        </p>
      ) : null}
      <button
        type="submit"
        className="primary"
        disabled={disabled || busy || candidates.length === 0}
      >
        {busy ? 'Saving…' : 'Save canary'}
      </button>
    </form>
  );
}
