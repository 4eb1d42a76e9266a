'use client';

import Link from 'next/link';
import { useEffect, useState, type FormEvent } from 'react';
import { routes, SECRET_NAME_PATTERN, type Secret, type SecretReference } from '@toolgate/contract';
import { apiRequest, describeError } from '../../lib/api';
import { ConfirmButton } from '../../components/confirm-button';
import { canAdminister, useSession } from '../../components/session';
import { Loaded } from '../../components/states';
import { useApi } from '../../components/use-api';
import { When } from '../../components/when';

/** Where a version stands, for the references column. */
function servedLabel(release: SecretReference['release']): string {
  return release === null ? 'not served' : release;
}

export default function SecretsPage() {
  const { user } = useSession();
  const admin = canAdminister(user.role);
  const teams = useApi(routes.listTeams, {});
  const [teamId, setTeamId] = useState<string>('');
  useEffect(() => {
    const first = teams.data?.items[0];
    if (teamId === '' && first !== undefined) setTeamId(first.id);
  }, [teams.data, teamId]);
  const secrets = useApi(routes.listSecrets, teamId === '' ? null : { query: { team_id: teamId } });
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [rotating, setRotating] = useState<string | null>(null);
  const [rotated, setRotated] = useState('');

  const done = () => {
    setError(null);
    secrets.reload();
  };
  const failed = (failure: unknown) => setError(describeError(failure));

  const create = (event: FormEvent) => {
    event.preventDefault();
    apiRequest(routes.createSecret, { body: { name, value, team_id: teamId } }).then(() => {
      // The value leaves the page's state as soon as the API has it.
      setName('');
      setValue('');
      done();
    }, failed);
  };

  const rotate = (event: FormEvent, secret: Secret) => {
    event.preventDefault();
    apiRequest(routes.rotateSecret, {
      params: { name: secret.name },
      query: { team_id: secret.team_id },
      body: { value: rotated },
    }).then(() => {
      setRotating(null);
      setRotated('');
      done();
    }, failed);
  };

  const remove = (secret: Secret, force: boolean) => {
    apiRequest(routes.deleteSecret, {
      params: { name: secret.name },
      query: { team_id: secret.team_id, force: force ? 'true' : undefined },
    }).then(done, failed);
  };

  return (
    <>
      <header className="page-header">
        <h1>Secrets</h1>
        <p className="hint">
          Credentials that http and MCP tools reference as {'{"secret": "NAME"}'}. Values are
          encrypted and never shown again; rotate one by entering a new value.
        </p>
      </header>
      <Loaded state={teams} what="teams">
        {(page) => (
          <label>
            Team{' '}
            <select value={teamId} onChange={(event) => setTeamId(event.target.value)}>
              {page.items.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </Loaded>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {teamId === '' ? null : (
        <Loaded state={secrets} what="secrets">
          {(page) => (
            <section className="card" aria-labelledby="secrets-heading">
              <h3 id="secrets-heading">Stored secrets</h3>
              {page.items.length === 0 ? (
                <p className="hint">This team has no secrets yet.</p>
              ) : null}
              <table>
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Updated</th>
                    <th>Last used</th>
                    <th>Referenced by</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((secret) => {
                    const served = secret.referenced_by.filter((use) => use.release !== null);
                    return (
                      <tr key={secret.name}>
                        <td>
                          <code>{secret.name}</code>
                        </td>
                        <td>
                          <When at={secret.updated_at} />
                        </td>
                        <td>{secret.last_used_at ? <When at={secret.last_used_at} /> : 'never'}</td>
                        <td>
                          {secret.referenced_by.length === 0 ? (
                            <span className="hint">no tool version</span>
                          ) : (
                            <ul>
                              {secret.referenced_by.map((use) => (
                                <li key={`${use.tool_id}@${use.version}${use.pointer}`}>
                                  <Link href={`/tools/${use.tool_id}`}>
                                    {use.tool_name}@{use.version}
                                  </Link>{' '}
                                  <span className="hint">({servedLabel(use.release)})</span>
                                </li>
                              ))}
                            </ul>
                          )}
                        </td>
                        <td>
                          {admin ? (
                            <div className="actions">
                              {rotating === secret.name ? (
                                <form onSubmit={(event) => rotate(event, secret)}>
                                  <input
                                    type="password"
                                    autoComplete="off"
                                    aria-label={`New value of ${secret.name}`}
                                    value={rotated}
                                    onChange={(event) => setRotated(event.target.value)}
                                  />
                                  <button
                                    type="submit"
                                    className="primary"
                                    disabled={rotated === ''}
                                  >
                                    Save
                                  </button>
                                  <button type="button" onClick={() => setRotating(null)}>
                                    Cancel
                                  </button>
                                </form>
                              ) : (
                                <button type="button" onClick={() => setRotating(secret.name)}>
                                  Rotate
                                </button>
                              )}
                              {served.length === 0 ? (
                                <ConfirmButton
                                  label="Delete"
                                  question={`Delete ${secret.name}?`}
                                  onConfirm={() => remove(secret, false)}
                                />
                              ) : (
                                <ConfirmButton
                                  label="Delete anyway"
                                  question={`${served
                                    .map(
                                      (use) =>
                                        `${use.tool_name}@${use.version} (${use.release ?? ''})`,
                                    )
                                    .join(
                                      ', ',
                                    )} use ${secret.name}; their calls will fail. Delete it?`}
                                  onConfirm={() => remove(secret, true)}
                                />
                              )}
                            </div>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </section>
          )}
        </Loaded>
      )}
      {admin && teamId !== '' ? (
        <section className="card" aria-labelledby="new-secret-heading">
          <h3 id="new-secret-heading">New secret</h3>
          <form onSubmit={create}>
            <label>
              Name{' '}
              <input
                value={name}
                placeholder="ORDERS_API_KEY"
                onChange={(event) => setName(event.target.value)}
              />
            </label>{' '}
            <label>
              Value{' '}
              <input
                type="password"
                autoComplete="off"
                value={value}
                onChange={(event) => setValue(event.target.value)}
              />
            </label>{' '}
            <button
              type="submit"
              className="primary"
              disabled={!SECRET_NAME_PATTERN.test(name) || value === ''}
            >
              Store
            </button>
          </form>
          <p className="hint">
            Names: a letter, then letters, digits or _ . : / - (e.g. ORDERS_API_KEY).
          </p>
        </section>
      ) : null}
    </>
  );
}
