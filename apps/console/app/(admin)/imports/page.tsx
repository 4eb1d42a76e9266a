'use client';

import { useId, useState, type FormEvent } from 'react';
import { routes, type ImportOpenApiRequest, type Team } from '@toolgate/contract';
import { apiRequest, describeError, nonEmpty } from '../../lib/api';
import { ConfirmButton } from '../../components/confirm-button';
import { canAdminister, useSession } from '../../components/session';
import { Loaded } from '../../components/states';
import { CheckboxField, TextField } from '../../components/text-field';
import { useApi } from '../../components/use-api';
import { ImportResult } from './import-result';
import {
  behaviorDefaults,
  summarizeMcpSync,
  summarizeOpenApiImport,
  type DefaultChoice,
  type DefaultChoices,
  type ImportSummary,
} from './import-summary';

const HINTS: { key: keyof DefaultChoices; label: string; mcpDefault: string }[] = [
  { key: 'read_only', label: 'Read-only', mcpDefault: 'no' },
  { key: 'destructive', label: 'Destructive', mcpDefault: 'yes' },
  { key: 'idempotent', label: 'Idempotent', mcpDefault: 'no' },
  { key: 'open_world', label: 'Open world', mcpDefault: 'yes' },
];

const NO_DEFAULTS: DefaultChoices = {
  read_only: '',
  destructive: '',
  idempotent: '',
  open_world: '',
};

function TeamField({
  id,
  teams,
  teamId,
  onChange,
}: {
  id: string;
  teams: Team[];
  teamId: string;
  onChange: (teamId: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Team</label>
      <select id={id} value={teamId} onChange={(event) => onChange(event.target.value)}>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function McpImport({ teams }: { teams: Team[] }) {
  const id = useId();
  const [pickedTeam, setTeamId] = useState('');
  const teamId = pickedTeam || (teams[0]?.id ?? '');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [secretRef, setSecretRef] = useState('');
  const [header, setHeader] = useState('Authorization');
  const [prefix, setPrefix] = useState('Bearer ');
  const [namePrefix, setNamePrefix] = useState('');
  const [publish, setPublish] = useState(false);
  const [choices, setChoices] = useState<DefaultChoices>(NO_DEFAULTS);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ server: string; summary: ImportSummary } | null>(null);

  const register = () => {
    setBusy(true);
    setError(null);
    apiRequest(routes.registerMcpServer, {
      body: {
        name: name.trim(),
        url: url.trim(),
        team_id: teamId,
        name_prefix: nonEmpty(namePrefix.trim()),
        publish,
        defaults: behaviorDefaults(choices),
        ...(secretRef.trim() === ''
          ? {}
          : { auth: { header: header.trim(), secret_ref: secretRef.trim(), prefix } }),
      },
    }).then(
      (answer) => {
        setBusy(false);
        setResult({ server: answer.server.name, summary: summarizeMcpSync(answer) });
      },
      (failure: unknown) => {
        setBusy(false);
        setError(describeError(failure));
      },
    );
  };

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>MCP server</h2>
      <p className="hint">
        Registers a Streamable HTTP server and imports every tool it lists. The API has no dry run
        for this import: it writes as soon as you confirm, and later syncs keep these settings.
      </p>
      <form
        className="form grid-2"
        aria-label="Import an MCP server"
        onSubmit={(event: FormEvent) => event.preventDefault()}
      >
        <TeamField id={`${id}-team`} teams={teams} teamId={teamId} onChange={setTeamId} />
        <TextField
          id={`${id}-name`}
          label="Server name"
          value={name}
          placeholder="wiki"
          onChange={setName}
        />
        <TextField
          id={`${id}-url`}
          label="Server URL"
          value={url}
          placeholder="https://wiki.example.com/mcp"
          onChange={setUrl}
        />
        <TextField
          id={`${id}-prefix`}
          label="Tool name prefix (optional)"
          value={namePrefix}
          onChange={setNamePrefix}
        />
        <TextField
          id={`${id}-secret`}
          label="Credential secret name (optional)"
          value={secretRef}
          placeholder="WIKI_TOKEN"
          onChange={setSecretRef}
        />
        {secretRef.trim() === '' ? null : (
          <>
            <TextField
              id={`${id}-header`}
              label="Credential header"
              value={header}
              onChange={setHeader}
            />
            <TextField
              id={`${id}-value-prefix`}
              label="Text before the secret"
              value={prefix}
              onChange={setPrefix}
            />
          </>
        )}
        <fieldset className="field span-2">
          <legend>Behavior of tools whose annotations say nothing</legend>
          {HINTS.map((hint) => (
            <div key={hint.key}>
              <label htmlFor={`${id}-${hint.key}`}>{hint.label}</label>{' '}
              <select
                id={`${id}-${hint.key}`}
                value={choices[hint.key]}
                onChange={(event) =>
                  setChoices({ ...choices, [hint.key]: event.target.value as DefaultChoice })
                }
              >
                <option value="">MCP default ({hint.mcpDefault})</option>
                <option value="yes">yes</option>
                <option value="no">no</option>
              </select>
            </div>
          ))}
          <p className="hint">Destructive tools wait for a person to approve every call.</p>
        </fieldset>
        <CheckboxField
          label="Publish the imported versions"
          checked={publish}
          onChange={setPublish}
        />
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="actions">
          <ConfirmButton
            label={busy ? 'Importing…' : 'Import server'}
            question={`Register ${name.trim() || 'this server'} and import its tools?`}
            tone="primary"
            disabled={busy || name.trim() === '' || url.trim() === '' || teamId === ''}
            onConfirm={register}
          />
        </div>
      </form>
      {result ? (
        <ImportResult title={`Imported from ${result.server}`} summary={result.summary} />
      ) : null}
    </section>
  );
}

/** Reads a document from a URL in the browser, which the source's CORS headers must allow. */
async function fetchDocument(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch {
    throw new Error(
      `Could not read ${url} from the browser (the server may not allow cross-origin reads): paste the document instead.`,
    );
  }
  if (!response.ok) throw new Error(`${url} answered ${response.status}.`);
  return response.text();
}

function OpenApiImportForm({ teams }: { teams: Team[] }) {
  const id = useId();
  const [pickedTeam, setTeamId] = useState('');
  const teamId = pickedTeam || (teams[0]?.id ?? '');
  const [source, setSource] = useState<'url' | 'text'>('url');
  const [url, setUrl] = useState('');
  const [text, setText] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [namePrefix, setNamePrefix] = useState('');
  const [publish, setPublish] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The request the preview answered, so the confirmed import is exactly what was previewed.
  const [previewed, setPreviewed] = useState<{
    body: ImportOpenApiRequest;
    summary: ImportSummary;
  } | null>(null);
  const [imported, setImported] = useState<ImportSummary | null>(null);

  const failed = (failure: unknown) => {
    setBusy(false);
    setError(describeError(failure));
  };

  const preview = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setPreviewed(null);
    setImported(null);
    (source === 'url' ? fetchDocument(url.trim()) : Promise.resolve(text))
      .then(async (document) => {
        const body: ImportOpenApiRequest = {
          document,
          team_id: teamId,
          base_url: nonEmpty(baseUrl.trim()),
          name_prefix: nonEmpty(namePrefix.trim()),
          publish,
        };
        const answer = await apiRequest(routes.importOpenApi, { body: { ...body, dry_run: true } });
        setBusy(false);
        setPreviewed({ body, summary: summarizeOpenApiImport(answer) });
      })
      .catch(failed);
  };

  const confirm = () => {
    if (previewed === null) return;
    setBusy(true);
    setError(null);
    apiRequest(routes.importOpenApi, { body: { ...previewed.body, dry_run: false } }).then(
      (answer) => {
        setBusy(false);
        setPreviewed(null);
        setImported(summarizeOpenApiImport(answer));
      },
      failed,
    );
  };

  const ready = teamId !== '' && (source === 'url' ? url.trim() !== '' : text.trim() !== '');
  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>OpenAPI document</h2>
      <p className="hint">
        One tool per operation, called over HTTP. Preview first: nothing is written until you
        confirm.
      </p>
      <form className="form grid-2" aria-label="Import an OpenAPI document" onSubmit={preview}>
        <TeamField id={`${id}-team`} teams={teams} teamId={teamId} onChange={setTeamId} />
        <div className="field">
          <label htmlFor={`${id}-source`}>Document from</label>
          <select
            id={`${id}-source`}
            value={source}
            onChange={(event) => setSource(event.target.value === 'text' ? 'text' : 'url')}
          >
            <option value="url">a URL</option>
            <option value="text">pasted text</option>
          </select>
        </div>
        {source === 'url' ? (
          <TextField
            id={`${id}-url`}
            label="Document URL"
            value={url}
            placeholder="https://api.example.com/openapi.json"
            onChange={setUrl}
          />
        ) : (
          <div className="field span-2">
            <label htmlFor={`${id}-text`}>Document (JSON or YAML)</label>
            <textarea
              id={`${id}-text`}
              rows={8}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
        )}
        <TextField
          id={`${id}-base`}
          label="Base URL (optional)"
          value={baseUrl}
          placeholder="https://api.example.com/v2"
          onChange={setBaseUrl}
        />
        <TextField
          id={`${id}-prefix`}
          label="Tool name prefix (optional)"
          value={namePrefix}
          onChange={setNamePrefix}
        />
        <CheckboxField
          label="Publish the imported versions"
          checked={publish}
          onChange={setPublish}
        />
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy || !ready}>
            {busy && previewed === null ? 'Previewing…' : 'Preview'}
          </button>
        </div>
      </form>
      {previewed ? (
        <>
          <ImportResult title="Preview (nothing written yet)" summary={previewed.summary} />
          <div className="actions">
            <ConfirmButton
              label="Import"
              question={`Import ${previewed.summary.total} tools as previewed?`}
              tone="primary"
              disabled={busy || previewed.summary.total === 0}
              onConfirm={confirm}
            />
          </div>
        </>
      ) : null}
      {imported ? <ImportResult title="Imported" summary={imported} /> : null}
    </section>
  );
}

export default function ImportsPage() {
  const { user } = useSession();
  const admin = canAdminister(user.role);
  // Listing teams is an admin route, and only admins import.
  const teams = useApi(routes.listTeams, admin ? {} : null);
  return (
    <>
      <header className="page-header">
        <h1>Imports</h1>
        <p className="hint">
          Turn an MCP server&apos;s tools or an OpenAPI document&apos;s operations into catalog
          tools.
        </p>
      </header>
      {admin ? (
        <Loaded state={teams} what="teams">
          {(page) =>
            page.items.length === 0 ? (
              <p className="hint">No team yet: create one with POST /v1/teams.</p>
            ) : (
              <>
                <McpImport teams={page.items} />
                <OpenApiImportForm teams={page.items} />
              </>
            )
          }
        </Loaded>
      ) : (
        <p className="hint">Only admins import tools.</p>
      )}
    </>
  );
}
