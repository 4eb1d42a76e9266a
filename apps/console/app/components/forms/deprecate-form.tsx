'use client';

import { useEffect, useId, useState, type FormEvent } from 'react';
import { routes, type ToolVersion, type VersionUsage } from '@toolgate/contract';
import { apiRequest, describeError } from '../../lib/api';
import { formatTime } from '../../lib/format';
import { When } from '../when';

export interface DeprecateFormProps {
  toolId: string;
  version: string;
  /** Versions a caller may move to. */
  successors: string[];
  disabled?: boolean;
  onDeprecated?: (version: ToolVersion) => void;
}

function defaultSunset(): string {
  // Thirty days ahead, in the local time a datetime-local input shows.
  const date = new Date(Date.now() + 30 * 24 * 3600 * 1000);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** Deprecates a version with a sunset and a successor, showing who still calls it first. */
export function DeprecateForm({
  toolId,
  version,
  successors,
  disabled = false,
  onDeprecated,
}: DeprecateFormProps) {
  const id = useId();
  const [sunset, setSunset] = useState(defaultSunset);
  const [successor, setSuccessor] = useState(successors[0] ?? '');
  const [usage, setUsage] = useState<VersionUsage | null>(null);
  const [usageError, setUsageError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let active = true;
    apiRequest(routes.getVersionUsage, {
      params: { toolId, version },
      query: { window: '7d' },
    }).then(
      (result) => active && setUsage(result),
      (failure: unknown) => active && setUsageError(describeError(failure)),
    );
    return () => {
      active = false;
    };
  }, [toolId, version]);

  const sunsetAt = new Date(sunset);
  const sunsetProblem =
    sunset === '' || Number.isNaN(sunsetAt.getTime())
      ? 'Enter the sunset date and time.'
      : sunsetAt.getTime() <= Date.now()
        ? 'The sunset must be in the future.'
        : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sunsetProblem !== null) return;
    if (!confirming) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    setError(null);
    const body = { sunset_at: sunsetAt.toISOString(), ...(successor === '' ? {} : { successor }) };
    apiRequest(routes.deprecateToolVersion, { params: { toolId, version }, body }).then(
      (result) => {
        setBusy(false);
        setConfirming(false);
        setDone(
          `Version ${version} is deprecated; it answers 410 from ${formatTime(result.sunset_at)}.`,
        );
        onDeprecated?.(result);
      },
      (failure: unknown) => {
        setBusy(false);
        setConfirming(false);
        setError(describeError(failure));
      },
    );
  };

  const totalCalls = usage?.callers.reduce((sum, caller) => sum + caller.calls, 0) ?? 0;

  return (
    <form className="form" onSubmit={submit} aria-label={`Deprecate ${version}`}>
      <section aria-label="Who still calls it">
        <h4>Callers of {version} in the last 7 days</h4>
        {usageError ? <p className="field-error">Usage unavailable: {usageError}</p> : null}
        {usage === null && usageError === null ? <p className="hint">Loading usage…</p> : null}
        {usage !== null && usage.callers.length === 0 ? (
          <p className="hint">Nobody called {version} in the last 7 days.</p>
        ) : null}
        {usage !== null && usage.callers.length > 0 ? (
          <table className="table compact">
            <caption className="sr-only">Callers of {version}</caption>
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col">API key / actor</th>
                <th scope="col">Calls</th>
                <th scope="col">Last call</th>
              </tr>
            </thead>
            <tbody>
              {usage.callers.map((caller) => (
                <tr key={`${caller.team_id}-${caller.key_id ?? caller.actor}`}>
                  <td>{caller.team_name}</td>
                  <td>{caller.key_name ?? caller.actor}</td>
                  <td>{caller.calls}</td>
                  <td>
                    <When at={caller.last_call_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
      <div className="field">
        <label htmlFor={`${id}-sunset`}>Sunset</label>
        <input
          id={`${id}-sunset`}
          type="datetime-local"
          value={sunset}
          disabled={disabled}
          aria-invalid={sunsetProblem !== null}
          aria-describedby={sunsetProblem ? `${id}-sunset-error` : undefined}
          onChange={(event) => {
            setSunset(event.target.value);
            setConfirming(false);
          }}
        />
        {sunsetProblem ? (
          <p id={`${id}-sunset-error`} className="field-error">
            {sunsetProblem}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${id}-successor`}>Successor</label>
        <select
          id={`${id}-successor`}
          value={successor}
          disabled={disabled}
          onChange={(event) => setSuccessor(event.target.value)}
        >
          <option value="">None</option>
          {successors.map((candidate) => (
            <option key={candidate} value={candidate}>
              {candidate}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      {confirming ? (
        <div className="confirm" role="group" aria-label="Confirm deprecation">
          <p>
            Deprecate {version}
            {totalCalls > 0 ? ` (${totalCalls} calls in the last 7 days)` : ''}? Callers get
            Deprecation and Sunset headers now and 410 after the sunset.
          </p>
          <button type="submit" className="danger" disabled={busy}>
            {busy ? 'Deprecating…' : `Confirm deprecation of ${version}`}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="submit" className="danger" disabled={disabled || sunsetProblem !== null}>
          Deprecate {version}…
        </button>
      )}
    </form>
  );
}
