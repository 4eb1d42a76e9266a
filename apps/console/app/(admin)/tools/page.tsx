'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Suspense, useId, useState, type FormEvent } from 'react';
import { routes, type Team } from '@toolgate/contract';
import { apiRequest, describeError, nonEmpty, oneOf } from '../../lib/api';
import { canAdminister, useSession } from '../../components/session';
import { Empty, Loaded, Loading } from '../../components/states';
import { ToolBadges } from '../../components/tool-badges';
import { useApi } from '../../components/use-api';
import { ToolActivity, useToolActivity } from './catalog-charts';
import { useUrlFilters } from '../../components/use-url-filters';
import { When } from '../../components/when';

/** The latest-version states the status filter offers (deprecated has its own checkbox). */
const STATUSES = ['published', 'draft'] as const;

function RegisterTool({ teams }: { teams: Team[] }) {
  const id = useId();
  const router = useRouter();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [pickedTeam, setTeamId] = useState('');
  // Teams arrive after the first render: default to the first one until someone picks.
  const teamId = pickedTeam || (teams[0]?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body = {
      name: name.trim(),
      description,
      tags: tags
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
      ...(teamId === '' ? {} : { team_id: teamId }),
    };
    apiRequest(routes.createTool, { body }).then(
      (tool) => router.push(`/tools/${tool.id}`),
      (failure: unknown) => {
        setBusy(false);
        setError(describeError(failure));
      },
    );
  };

  return (
    <details className="card">
      <summary>Register a tool</summary>
      <form className="form grid-2" onSubmit={submit} aria-label="Register a tool">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="orders.refund"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-team`}>Team</label>
          <select
            id={`${id}-team`}
            value={teamId}
            onChange={(event) => setTeamId(event.target.value)}
          >
            {teams.length === 0 ? (
              <option value="">No team yet: create one with POST /v1/teams</option>
            ) : null}
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-description`}>Description</label>
          <input
            id={`${id}-description`}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-tags`}>Tags (comma-separated)</label>
          <input
            id={`${id}-tags`}
            value={tags}
            onChange={(event) => setTags(event.target.value)}
            placeholder="billing, write"
          />
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Registering…' : 'Register tool'}
          </button>
        </div>
      </form>
    </details>
  );
}

export default function CatalogPage() {
  return (
    <Suspense fallback={<Loading what="the catalog" />}>
      <Catalog />
    </Suspense>
  );
}

const FILTERS = ['q', 'tag', 'team', 'status', 'deprecated'] as const;

function Catalog() {
  const id = useId();
  const { user } = useSession();
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const text = filters.q;
  const tag = filters.tag;
  const team = filters.team;
  const status = oneOf(STATUSES, filters.status, '');
  const deprecatedOnly = filters.deprecated === 'true';
  const setText = (q: string) => setFilters({ q });
  const setTag = (value: string) => setFilters({ tag: value });
  const setTeam = (value: string) => setFilters({ team: value });
  const setStatus = (value: (typeof STATUSES)[number] | '') => setFilters({ status: value });
  const setDeprecatedOnly = (value: boolean) => setFilters({ deprecated: value ? 'true' : '' });
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  // Listing teams is an admin route; other roles filter by the other fields.
  const teams = useApi(routes.listTeams, canAdminister(user.role) ? {} : null);
  const tools = useApi(routes.listTools, {
    query: {
      q: nonEmpty(text.trim()),
      tag: nonEmpty(tag.trim()),
      team: nonEmpty(team),
      status: deprecatedOnly ? 'deprecated' : status === '' ? undefined : status,
      cursor,
      limit: 50,
    },
  });
  const activity = useToolActivity();
  const teamNames = new Map((teams.data?.items ?? []).map((entry) => [entry.id, entry.name]));

  return (
    <>
      <header className="page-header">
        <h1>Catalog</h1>
        <p className="hint">Every tool the gateway knows, with its release state.</p>
      </header>
      {canAdminister(user.role) ? <RegisterTool teams={teams.data?.items ?? []} /> : null}
      <form
        className="filters"
        role="search"
        aria-label="Filter tools"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="field">
          <label htmlFor={`${id}-q`}>Search</label>
          <input
            id={`${id}-q`}
            type="search"
            value={text}
            placeholder="name, tag or description"
            onChange={(event) => {
              setText(event.target.value);
              setCursor(undefined);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-tag`}>Tag</label>
          <input
            id={`${id}-tag`}
            value={tag}
            onChange={(event) => {
              setTag(event.target.value);
              setCursor(undefined);
            }}
          />
        </div>
        {teams.data ? (
          <div className="field">
            <label htmlFor={`${id}-team`}>Team</label>
            <select
              id={`${id}-team`}
              value={team}
              onChange={(event) => {
                setTeam(event.target.value);
                setCursor(undefined);
              }}
            >
              <option value="">All teams</option>
              {(teams.data?.items ?? []).map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            value={status}
            disabled={deprecatedOnly}
            onChange={(event) => {
              setStatus(oneOf(STATUSES, event.target.value, ''));
              setCursor(undefined);
            }}
          >
            <option value="">Any</option>
            <option value="published">Published</option>
            <option value="draft">Draft</option>
          </select>
        </div>
        <label className="inline">
          <input
            type="checkbox"
            checked={deprecatedOnly}
            onChange={(event) => {
              setDeprecatedOnly(event.target.checked);
              setCursor(undefined);
            }}
          />{' '}
          Deprecated only
        </label>
      </form>
      <Loaded state={tools} what="tools">
        {(page) =>
          page.items.length === 0 ? (
            <Empty title="No tools match.">
              <p>
                {canAdminister(user.role)
                  ? 'Clear the filters, or register a tool above.'
                  : 'Clear the filters, or ask an admin to register tools.'}
              </p>
            </Empty>
          ) : (
            <>
              <table className="table">
                <caption className="sr-only">Tools</caption>
                <thead>
                  <tr>
                    <th scope="col">Tool</th>
                    <th scope="col">Team</th>
                    <th scope="col">Tags</th>
                    <th scope="col">Stable</th>
                    <th scope="col">Canary</th>
                    <th scope="col">Last 24 h</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((tool) => (
                    <tr key={tool.id}>
                      <td>
                        <Link href={`/tools/${tool.id}`}>{tool.name}</Link>{' '}
                        <ToolBadges tool={tool} />
                        <div className="hint truncate">{tool.description}</div>
                      </td>
                      <td>{teamNames.get(tool.team_id) ?? tool.team_id.slice(0, 8)}</td>
                      <td>
                        {tool.tags.map((entry) => (
                          <span key={entry} className="badge">
                            {entry}
                          </span>
                        ))}
                      </td>
                      <td>{tool.release?.stable_version ?? <span className="hint">none</span>}</td>
                      <td>
                        {tool.release?.canary_version
                          ? `${tool.release.canary_version} (${tool.release.canary_percent}%)`
                          : '—'}
                      </td>
                      <td>
                        <ToolActivity toolId={tool.id} name={tool.name} activity={activity} />
                      </td>
                      <td>
                        <When at={tool.updated_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {page.next_cursor ? (
                <button type="button" onClick={() => setCursor(page.next_cursor ?? undefined)}>
                  Next page
                </button>
              ) : null}
            </>
          )
        }
      </Loaded>
    </>
  );
}
