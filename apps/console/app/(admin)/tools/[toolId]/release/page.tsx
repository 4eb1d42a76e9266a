'use client';

import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useId, useState } from 'react';
import { routes, type CanaryVersionStats, type Release } from '@toolgate/contract';
import { apiRequest, describeError } from '../../../../lib/api';
import { formatMs, formatPercent } from '../../../../lib/format';
import { ActorName } from '../../../../components/actor-name';
import { VersionCallers } from '../../../../components/version-callers';
import { When } from '../../../../components/when';
import { ConfirmButton } from '../../../../components/confirm-button';
import { CanaryForm } from '../../../../components/forms/canary-form';
import { DeprecateForm } from '../../../../components/forms/deprecate-form';
import { canAdminister, useSession } from '../../../../components/session';
import { ErrorState, Loaded, Loading } from '../../../../components/states';
import { useApi } from '../../../../components/use-api';
import { ReleaseCharts } from './release-charts';

function StatsColumn({ title, stats }: { title: string; stats: CanaryVersionStats | null }) {
  return (
    <div className="stat-card">
      <h4>
        {title} {stats ? <span className="hint">{stats.version}</span> : null}
      </h4>
      {stats === null ? (
        <p className="hint">No version.</p>
      ) : (
        <dl className="pairs">
          <dt>Success rate</dt>
          <dd>{formatPercent(stats.success_rate, 2)}</dd>
          <dt>p95 latency</dt>
          <dd>{formatMs(stats.p95_latency_ms)}</dd>
          <dt>Calls</dt>
          <dd>{stats.calls}</dd>
          <dt>Validation failures</dt>
          <dd>{formatPercent(stats.validation_failure_rate, 2)}</dd>
        </dl>
      )}
    </div>
  );
}

export default function ReleasePage() {
  const id = useId();
  const { toolId } = useParams<{ toolId: string }>();
  const { user } = useSession();
  const admin = canAdminister(user.role);
  const params = { toolId };
  const tool = useApi(routes.getTool, { params });
  const release = useApi(routes.getRelease, { params });
  const versions = useApi(routes.listToolVersions, { params });
  const health = useApi(routes.getReleaseHealth, { params }, { pollMs: 5000 });
  const [stable, setStable] = useState('');
  const [deprecating, setDeprecating] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = () => {
    release.reload();
    versions.reload();
    health.reload();
    tool.reload();
  };
  const act = (label: string, change: () => Promise<Release>) => {
    setError(null);
    setMessage(null);
    change().then(
      () => {
        setMessage(label);
        refresh();
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  };

  if (tool.error !== undefined) return <ErrorState error={tool.error} onRetry={tool.reload} />;
  if (tool.data === undefined || release.data === undefined || versions.data === undefined) {
    return release.error !== undefined ? (
      <ErrorState error={release.error} onRetry={refresh} />
    ) : (
      <Loading what="the release" />
    );
  }
  const current = release.data;
  const published = versions.data.items
    .filter((version) => version.status === 'published' && version.deprecated_at === null)
    .map((version) => version.version);
  const deprecatable = versions.data.items.filter(
    (version) => version.status === 'published' && version.deprecated_at === null,
  );
  // Nothing risky is preselected: a person picks the version; a pick that left the options
  // (deprecated meanwhile) is dropped rather than replaced by another version.
  const chosenStable = published.includes(stable) ? stable : '';
  const chosenDeprecation = deprecatable.some((version) => version.version === deprecating)
    ? deprecating
    : '';

  return (
    <>
      <header className="page-header">
        <p className="breadcrumb">
          <Link href="/releases">Releases</Link> /{' '}
          <Link href={`/tools/${toolId}`}>{tool.data.name}</Link> /
        </p>
        <h1>Release of {tool.data.name}</h1>
        <p>
          Stable <strong>{current.stable_version ?? 'none'}</strong> · canary{' '}
          <strong>{current.canary_version ?? 'none'}</strong>
          {current.canary_version ? ` at ${current.canary_percent}%` : ''} · last change{' '}
          <When at={current.updated_at} />
          {current.updated_by ? (
            <>
              {' '}
              by <ActorName actor={current.updated_by} actors={current.actors} />
            </>
          ) : null}
        </p>
        {!admin ? <p className="hint">You can look; only admins change releases.</p> : null}
      </header>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {message ? (
        <p className="success" role="status">
          {message}
        </p>
      ) : null}
      <div className="grid-2">
        <section className="card" aria-labelledby={`${id}-stable`}>
          <h3 id={`${id}-stable`}>Stable version</h3>
          <div className="field">
            <label htmlFor={`${id}-stable-version`}>Version</label>
            <select
              id={`${id}-stable-version`}
              value={chosenStable}
              disabled={!admin}
              onChange={(event) => setStable(event.target.value)}
            >
              <option value="">Choose a version…</option>
              {published.map((version) => (
                <option key={version}>{version}</option>
              ))}
            </select>
          </div>
          <ConfirmButton
            label="Set stable"
            tone="primary"
            disabled={!admin || chosenStable === '' || chosenStable === current.stable_version}
            question={
              <>
                Serve {chosenStable} to every caller not in the canary?{' '}
                {current.stable_version ? (
                  <>
                    Callers who do not pin a version stop getting {current.stable_version}:{' '}
                    <VersionCallers toolId={toolId} version={current.stable_version} />
                  </>
                ) : null}
              </>
            }
            onConfirm={() =>
              act(`Stable is now ${chosenStable}.`, () =>
                apiRequest(routes.setStableVersion, { params, body: { version: chosenStable } }),
              )
            }
          />
        </section>
        <section className="card" aria-labelledby={`${id}-canary`}>
          <h3 id={`${id}-canary`}>Canary</h3>
          <CanaryForm
            key={`${current.canary_version ?? ''}${current.canary_percent}`}
            toolId={toolId}
            versions={published}
            release={current}
            disabled={!admin}
            onSaved={(next) => {
              setMessage(
                `Canary ${next.canary_version ?? 'cleared'} now gets ${next.canary_percent}% of callers.`,
              );
              refresh();
            }}
          />
        </section>
      </div>
      <section className="card" aria-labelledby={`${id}-health`}>
        <h3 id={`${id}-health`}>Canary health (live)</h3>
        <Loaded state={health} what="release health">
          {(report) => (
            <>
              <p>
                Verdict{' '}
                <span className={`badge verdict-${report.verdict}`}>
                  {report.verdict.replaceAll('_', ' ')}
                </span>{' '}
                · window <When at={report.window.from} /> – <When at={report.window.to} />
              </p>
              <div className="grid-2">
                <StatsColumn title="Stable" stats={report.stable} />
                <StatsColumn title="Canary" stats={report.canary} />
              </div>
            </>
          )}
        </Loaded>
        <div className="actions">
          <ConfirmButton
            label="Promote canary"
            tone="primary"
            disabled={!admin || current.canary_version === null}
            question={
              <>
                Make {current.canary_version ?? 'the canary'} stable for everyone?{' '}
                {current.stable_version ? (
                  <>
                    Callers of {current.stable_version} move to it:{' '}
                    <VersionCallers toolId={toolId} version={current.stable_version} />
                  </>
                ) : null}
              </>
            }
            onConfirm={() =>
              act('Promoted the canary to stable.', () =>
                apiRequest(routes.promoteCanary, { params, body: {} }),
              )
            }
          />
          <ConfirmButton
            label="Roll back"
            disabled={
              !admin ||
              (current.canary_version === null && current.previous_stable_version === null)
            }
            question={
              current.canary_version ? (
                <>
                  Stop the canary {current.canary_version} and serve{' '}
                  {current.stable_version ?? 'stable'} to everyone? Its callers move back:{' '}
                  <VersionCallers toolId={toolId} version={current.canary_version} />
                </>
              ) : (
                <>
                  Return stable to {current.previous_stable_version ?? 'the previous version'}?{' '}
                  {current.stable_version ? (
                    <>
                      Callers of {current.stable_version} move to it:{' '}
                      <VersionCallers toolId={toolId} version={current.stable_version} />
                    </>
                  ) : null}
                </>
              )
            }
            onConfirm={() =>
              act('Rolled back.', () => apiRequest(routes.rollbackRelease, { params, body: {} }))
            }
          />
        </div>
      </section>
      <ReleaseCharts toolId={toolId} health={health.data} />
      <section className="card" aria-labelledby={`${id}-deprecate`}>
        <h3 id={`${id}-deprecate`}>Deprecate a version</h3>
        {deprecatable.length === 0 ? (
          <p className="hint">No published version left to deprecate.</p>
        ) : (
          <>
            <div className="field">
              <label htmlFor={`${id}-deprecate-version`}>Version to deprecate</label>
              <select
                id={`${id}-deprecate-version`}
                value={chosenDeprecation}
                onChange={(event) => setDeprecating(event.target.value)}
              >
                <option value="">Choose a version…</option>
                {deprecatable.map((version) => (
                  <option key={version.version} value={version.version}>
                    {version.version}
                    {version.version === current.stable_version ? ' (stable)' : ''}
                    {version.version === current.canary_version ? ' (canary)' : ''}
                  </option>
                ))}
              </select>
            </div>
            {chosenDeprecation === '' ? null : (
              <DeprecateForm
                key={chosenDeprecation}
                toolId={toolId}
                version={chosenDeprecation}
                successors={published.filter((version) => version !== chosenDeprecation)}
                disabled={!admin}
                onDeprecated={(version) => {
                  setMessage(
                    `Version ${version.version} is deprecated; sunset ${version.sunset_at ?? 'unset'}.`,
                  );
                  refresh();
                }}
              />
            )}
          </>
        )}
        {versions.data.items.some((version) => version.deprecated_at !== null) ? (
          <>
            <h4>Already deprecated</h4>
            <ul>
              {versions.data.items
                .filter((version) => version.deprecated_at !== null)
                .map((version) => (
                  <li key={version.version}>
                    {version.version}: sunset <When at={version.sunset_at} />
                    {version.successor_version ? `, successor ${version.successor_version}` : ''}
                  </li>
                ))}
            </ul>
          </>
        ) : null}
      </section>
    </>
  );
}
