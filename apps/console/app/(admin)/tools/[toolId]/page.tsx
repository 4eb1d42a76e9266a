'use client';

import { isRecord } from '@toolgate/toolir';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  ExportFormatSchema,
  routes,
  type Tool,
  type ToolVersion,
  type ToolVersionWithIr,
} from '@toolgate/contract';
import { apiRequest, describeError } from '../../../lib/api';
import { formatMs, prettyJson } from '../../../lib/format';
import { When } from '../../../components/when';
import { defaultVersion } from '../../../lib/default-version';
import { JsonView } from '../../../components/json-view';
import { SchemaTree } from '../../../components/schema-tree';
import { canAdminister, useSession } from '../../../components/session';
import { Empty, ErrorState, Loaded, Loading } from '../../../components/states';
import { useApi } from '../../../components/use-api';
import { VersionSecrets } from '../../../components/version-secrets';

const FORMATS = ExportFormatSchema.options;
const BEHAVIOR_FLAGS = ['readonly', 'destructive', 'idempotent', 'open_world'] as const;

/** A version as listed (no ToolIR), or with its ToolIR once its own route answered. */
type LoadedVersion = ToolVersion & Partial<Pick<ToolVersionWithIr, 'ir'>>;

function nextVersion(versions: LoadedVersion[]): string {
  const latest = versions[0]?.version;
  if (latest === undefined) return '1.0.0';
  const major = Number(latest.split('.')[0]);
  return Number.isInteger(major) ? `${major + 1}.0.0` : '1.0.0';
}

function irTemplate(tool: Tool, versions: LoadedVersion[], stable: string | null): string {
  // Prefilled from what callers get today, so a new version starts from the served one, not a draft.
  const served = versions.find((version) => version.version === defaultVersion(versions, stable));
  const previous = served?.ir ?? versions.find((version) => version.ir !== undefined)?.ir;
  const base = previous ?? {
    schema_version: '1.0',
    id: tool.id,
    name: tool.name,
    description: tool.description || tool.name,
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 10_000 },
  };
  return prettyJson({ ...base, version: nextVersion(versions) });
}

function IrView({ version }: { version: ToolVersionWithIr }) {
  const ir = version.ir;
  const behavior = isRecord(ir['behavior']) ? ir['behavior'] : {};
  const constraints = isRecord(ir['constraints']) ? ir['constraints'] : {};
  return (
    <div className="ir">
      <p>{typeof ir['description'] === 'string' ? ir['description'] : ''}</p>
      <h4>Behavior</h4>
      <p>
        {BEHAVIOR_FLAGS.map((flag) => (
          <span
            key={flag}
            className={`badge ${behavior[flag] === true ? `flag-on flag-${flag}` : 'flag-off'}`}
          >
            {behavior[flag] === true ? flag.replace('_', ' ') : `not ${flag.replace('_', ' ')}`}
          </span>
        ))}
        {typeof behavior['requires_approval'] === 'string' ? (
          <span className="badge">
            approval: {behavior['requires_approval'].replaceAll('_', ' ')}
          </span>
        ) : null}
      </p>
      <h4>Parameters</h4>
      <SchemaTree schema={ir['parameters']} />
      <h4>Constraints</h4>
      <dl className="pairs">
        <dt>Timeout</dt>
        <dd>
          {typeof constraints['timeout_ms'] === 'number'
            ? formatMs(constraints['timeout_ms'])
            : '—'}
        </dd>
        <dt>Max retries</dt>
        <dd>{typeof constraints['max_retries'] === 'number' ? constraints['max_retries'] : 0}</dd>
        <dt>Rate limit</dt>
        <dd>
          {isRecord(constraints['rate_limit'])
            ? `${String(constraints['rate_limit']['rpm'])} per minute`
            : 'none'}
        </dd>
        <dt>Cost estimate</dt>
        <dd>
          {typeof constraints['cost_estimate_usd'] === 'number'
            ? `$${constraints['cost_estimate_usd']}`
            : '—'}
        </dd>
        {Array.isArray(ir['fallback']) && ir['fallback'].length > 0 ? (
          <>
            <dt>Fallback</dt>
            <dd>{ir['fallback'].join(', ')}</dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}

function ExportPreview({ tool, version }: { tool: Tool; version: string }) {
  const [format, setFormat] = useState<(typeof FORMATS)[number]>('openai-chat');
  const preview = useApi(routes.exportTools, {
    query: { format, names: tool.name, pin: `${tool.name}@${version}` },
  });
  return (
    <section className="card" aria-labelledby="export-heading">
      <h3 id="export-heading">Export preview of {version}</h3>
      <div role="tablist" aria-label="Provider format" className="tabs">
        {FORMATS.map((entry) => (
          <button
            key={entry}
            type="button"
            role="tab"
            aria-selected={entry === format}
            className={entry === format ? 'active' : undefined}
            onClick={() => setFormat(entry)}
          >
            {entry}
          </button>
        ))}
      </div>
      <Loaded state={preview} what="the export">
        {(body) => (
          <div className="grid-2">
            <div>
              <h4>Definition</h4>
              {body.tools.length === 0 ? (
                <p className="hint">
                  Not exported: {body.skipped.map((skip) => skip.reason).join(', ') || 'no match'}.
                </p>
              ) : (
                <JsonView
                  value={body.tools.length === 1 ? body.tools[0] : body.tools}
                  label={`${format} definition`}
                />
              )}
            </div>
            <div>
              <h4>Downgrade report</h4>
              {body.downgrades.entries.length === 0 && body.downgrades.limits.length === 0 ? (
                <p className="success">
                  Nothing lost: {format} carries every constraint of this version.
                </p>
              ) : (
                <JsonView value={body.downgrades} label="Downgrade report" />
              )}
            </div>
          </div>
        )}
      </Loaded>
    </section>
  );
}

function VersionDiffView({ toolId, versions }: { toolId: string; versions: LoadedVersion[] }) {
  const id = useId();
  const [from, setFrom] = useState(versions[1]?.version ?? versions[0]?.version ?? '');
  const [to, setTo] = useState(versions[0]?.version ?? '');
  const diff = useApi(
    routes.diffToolVersions,
    from !== '' && to !== '' && from !== to ? { params: { toolId }, query: { from, to } } : null,
  );
  const byVersion = new Map(versions.map((version) => [version.version, version]));
  const parametersOf = (version: string) => byVersion.get(version)?.ir?.['parameters'];
  if (versions.length < 2) return null;
  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Compare versions</h3>
      <div className="filters">
        <div className="field">
          <label htmlFor={`${id}-from`}>From</label>
          <select id={`${id}-from`} value={from} onChange={(event) => setFrom(event.target.value)}>
            {versions.map((version) => (
              <option key={version.version}>{version.version}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>To</label>
          <select id={`${id}-to`} value={to} onChange={(event) => setTo(event.target.value)}>
            {versions.map((version) => (
              <option key={version.version}>{version.version}</option>
            ))}
          </select>
        </div>
      </div>
      {from === to ? <p className="hint">Pick two different versions.</p> : null}
      {diff.error !== undefined ? <ErrorState error={diff.error} onRetry={diff.reload} /> : null}
      {diff.data && from !== to ? (
        <>
          <p>
            {diff.data.breaking ? (
              <span className="badge status-failed">breaking</span>
            ) : (
              <span className="badge status-succeeded">compatible</span>
            )}{' '}
            {diff.data.changes.length} change
            {diff.data.changes.length === 1 ? '' : 's'} from {from} to {to}
          </p>
          <ul className="changes">
            {diff.data.changes.map((change) => (
              <li
                key={`${change.kind}${change.path}`}
                className={change.breaking ? 'breaking' : undefined}
              >
                {change.breaking ? (
                  <span className="badge status-failed">breaking</span>
                ) : (
                  <span className="badge">compatible</span>
                )}{' '}
                <code>{change.path}</code> {change.message}
              </li>
            ))}
          </ul>
          <div className="grid-2 side-by-side">
            <div>
              <h4>{from}</h4>
              <JsonView value={parametersOf(from)} label={`Parameters of ${from}`} />
            </div>
            <div>
              <h4>{to}</h4>
              <JsonView value={parametersOf(to)} label={`Parameters of ${to}`} />
            </div>
          </div>
        </>
      ) : null}
    </section>
  );
}

function PublishVersion({
  tool,
  versions,
  onPublished,
}: {
  tool: Tool;
  versions: LoadedVersion[];
  onPublished: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(() =>
    irTemplate(tool, versions, tool.release?.stable_version ?? null),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    let ir: unknown;
    try {
      ir = JSON.parse(text);
    } catch (failure) {
      setError(
        `The ToolIR is not valid JSON: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
      return;
    }
    if (!isRecord(ir)) {
      setError('The ToolIR must be a JSON object.');
      return;
    }
    setBusy(true);
    setError(null);
    apiRequest(routes.publishToolVersion, {
      params: { toolId: tool.id },
      body: { ir, status: 'published' },
    }).then(
      () => {
        setBusy(false);
        onPublished();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(describeError(failure));
      },
    );
  };

  return (
    <details className="card">
      <summary>Publish a version</summary>
      <form className="form" onSubmit={submit} aria-label="Publish a version">
        <div className="field">
          <label htmlFor={`${id}-ir`}>ToolIR (JSON)</label>
          <textarea
            id={`${id}-ir`}
            className="code"
            rows={16}
            spellCheck={false}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={error !== null}
          />
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Publishing…' : 'Publish'}
        </button>
      </form>
    </details>
  );
}

export default function ToolPage() {
  const { toolId } = useParams<{ toolId: string }>();
  const { user } = useSession();
  const tool = useApi(routes.getTool, { params: { toolId } });
  const versions = useApi(routes.listToolVersions, { params: { toolId } });
  const [selected, setSelected] = useState<string | null>(null);
  const selectedVersion =
    selected ??
    (tool.data === undefined || versions.data === undefined
      ? null
      : defaultVersion(versions.data.items, tool.data.release?.stable_version));
  const detail = useApi(
    routes.getToolVersion,
    selectedVersion === null ? null : { params: { toolId, version: selectedVersion } },
  );
  const [withIr, setWithIr] = useState<LoadedVersion[]>([]);

  // The diff and the publish template need every version's IR; the list route leaves it out.
  useEffect(() => {
    const items = versions.data?.items;
    if (items === undefined) return;
    let active = true;
    Promise.all(
      items.map((version): Promise<LoadedVersion> =>
        apiRequest(routes.getToolVersion, {
          params: { toolId, version: version.version },
        }).catch(() => version),
      ),
    ).then(
      (loaded) => active && setWithIr(loaded),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [toolId, versions.data]);

  if (tool.error !== undefined) return <ErrorState error={tool.error} onRetry={tool.reload} />;
  if (tool.data === undefined) return <Loading what="the tool" />;
  const current = tool.data;

  return (
    <>
      <header className="page-header">
        <p className="breadcrumb">
          <Link href="/tools">Catalog</Link> /
        </p>
        <h1>{current.name}</h1>
        <p>{current.description}</p>
        <p>
          {current.tags.map((tag) => (
            <span key={tag} className="badge">
              {tag}
            </span>
          ))}
          <span className="badge">{current.visibility}</span>
        </p>
        <p>
          Stable <strong>{current.release?.stable_version ?? 'none'}</strong>
          {current.release?.canary_version ? (
            <>
              {' '}
              · canary <strong>{current.release.canary_version}</strong> at{' '}
              {current.release.canary_percent}%
            </>
          ) : null}{' '}
          · <Link href={`/tools/${current.id}/release`}>Manage release</Link>
        </p>
      </header>
      {canAdminister(user.role) &&
      versions.data !== undefined &&
      withIr.length === versions.data.items.length ? (
        <PublishVersion
          // A new template (next version, latest IR) once per published version; never while typing.
          key={withIr.map((version) => version.version).join(',')}
          tool={current}
          versions={withIr}
          onPublished={() => {
            versions.reload();
            tool.reload();
          }}
        />
      ) : null}
      <Loaded state={versions} what="versions">
        {(page) =>
          page.items.length === 0 ? (
            <Empty title="No versions yet.">
              <p>
                {canAdminister(user.role)
                  ? 'Publish the first version above.'
                  : 'An admin publishes versions.'}
              </p>
            </Empty>
          ) : (
            <div className="split">
              <section className="card" aria-labelledby="versions-heading">
                <h3 id="versions-heading">Versions</h3>
                <ul className="version-list">
                  {page.items.map((version) => (
                    <li key={version.version}>
                      <button
                        type="button"
                        aria-pressed={version.version === selectedVersion}
                        className={version.version === selectedVersion ? 'active' : undefined}
                        onClick={() => setSelected(version.version)}
                      >
                        <strong>{version.version}</strong>{' '}
                        <span
                          className={`badge ${version.status === 'draft' ? 'badge-draft' : ''}`}
                        >
                          {version.status}
                        </span>
                        {version.deprecated_at ? (
                          <span className="badge status-expired">deprecated</span>
                        ) : null}
                        {current.release?.stable_version === version.version ? (
                          <span className="badge status-succeeded">stable</span>
                        ) : null}
                        {current.release?.canary_version === version.version ? (
                          <span className="badge status-running">canary</span>
                        ) : null}
                        <span className="hint">
                          {' '}
                          <When at={version.created_at} />
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
              <section className="card" aria-labelledby="ir-heading">
                <h3 id="ir-heading">
                  Version {selectedVersion}
                  {detail.data?.status === 'draft' ? (
                    <span className="badge badge-draft">draft</span>
                  ) : null}
                </h3>
                {detail.data?.status === 'draft' ? (
                  <p className="hint">
                    A draft: no caller gets it unless they pin exactly {selectedVersion}; the
                    preview below pins it.
                  </p>
                ) : null}
                {detail.data?.deprecated_at ? (
                  <p className="warning">
                    Deprecated; sunset <When at={detail.data.sunset_at} />
                    {detail.data.successor_version
                      ? `, successor ${detail.data.successor_version}`
                      : ''}
                    .
                  </p>
                ) : null}
                <Loaded state={detail} what="the ToolIR">
                  {(version) => (
                    <>
                      <IrView version={version} />
                      <VersionSecrets ir={version.ir} teamId={current.team_id} />
                    </>
                  )}
                </Loaded>
              </section>
            </div>
          )
        }
      </Loaded>
      {selectedVersion !== null ? <ExportPreview tool={current} version={selectedVersion} /> : null}
      <VersionDiffView
        key={withIr.map((version) => version.version).join(',')}
        toolId={current.id}
        versions={withIr}
      />
    </>
  );
}
