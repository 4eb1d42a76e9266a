'use client';

import { useId, useState, type FormEvent } from 'react';
import {
  CONSOLE_ROLES,
  routes,
  type ConsoleRole,
  type ConsoleUserDetail,
  type UpdateConsoleUserRequest,
} from '@toolgate/contract';
import { ApiError, apiRequest, describeError, oneOf } from '../../lib/api';
import { ConfirmButton } from '../../components/confirm-button';
import { canAdminister, useSession } from '../../components/session';
import { Empty, Loaded } from '../../components/states';
import { useApi } from '../../components/use-api';
import { When } from '../../components/when';

function AddUser({ onAdded }: { onAdded: (user: ConsoleUserDetail) => void }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<ConsoleRole>('viewer');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setErrors({});
    apiRequest(routes.createConsoleUser, { body: { email, name, role, password } }).then(
      (user) => {
        setBusy(false);
        setEmail('');
        setName('');
        setPassword('');
        onAdded(user);
      },
      (failure: unknown) => {
        setBusy(false);
        if (failure instanceof ApiError && failure.problem.errors.length > 0) {
          setErrors(
            Object.fromEntries(
              ['email', 'name', 'role', 'password'].map((field) => [
                field,
                failure.issuesFor(field),
              ]),
            ),
          );
        }
        setError(describeError(failure));
      },
    );
  };

  const fieldError = (field: string) =>
    (errors[field] ?? []).length > 0 ? (
      <p className="field-error">{(errors[field] ?? []).join('; ')}</p>
    ) : null;

  return (
    <form className="form grid-2 card" onSubmit={submit} aria-label="Add a person">
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        {fieldError('email')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        {fieldError('name')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-role`}>Role</label>
        <select
          id={`${id}-role`}
          value={role}
          onChange={(event) => setRole(oneOf(CONSOLE_ROLES, event.target.value, role))}
        >
          {CONSOLE_ROLES.map((entry) => (
            <option key={entry}>{entry}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-password`}>Initial password (12+ characters)</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          minLength={12}
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {fieldError('password')}
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add person'}
        </button>
      </div>
    </form>
  );
}

export default function UsersPage() {
  const { user } = useSession();
  const admin = canAdminister(user.role);
  const users = useApi(routes.listConsoleUsers, admin ? {} : null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const update = (target: ConsoleUserDetail, body: UpdateConsoleUserRequest) => {
    setError(null);
    setMessage(null);
    apiRequest(routes.updateConsoleUser, { params: { userId: target.id }, body }).then(
      (next) => {
        setMessage(`${next.email} is now ${next.disabled ? 'disabled' : next.role}.`);
        users.reload();
      },
      (failure: unknown) => setError(describeError(failure)),
    );
  };

  if (!admin) {
    return (
      <Empty title="Only admins manage people.">
        <p>Ask an admin to add someone or change a role.</p>
      </Empty>
    );
  }

  return (
    <>
      <header className="page-header">
        <h1>People</h1>
        <p className="hint">
          Who may sign in to the console: viewers read, approvers also decide approvals, admins
          change everything. Every action is audited as <code>user:&lt;email&gt;</code>.
        </p>
      </header>
      <AddUser
        onAdded={(added) => {
          setMessage(`Added ${added.email} as ${added.role}.`);
          users.reload();
        }}
      />
      {message ? (
        <p className="success" role="status">
          {message}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <Loaded state={users} what="people">
        {(page) => (
          <table className="table">
            <caption className="sr-only">Console users</caption>
            <thead>
              <tr>
                <th scope="col">Person</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Added</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((person) => (
                <tr key={person.id}>
                  <td>
                    {person.name}
                    <div className="hint">{person.email}</div>
                  </td>
                  <td>
                    <label className="sr-only" htmlFor={`role-${person.id}`}>
                      Role of {person.email}
                    </label>
                    <select
                      id={`role-${person.id}`}
                      value={person.role}
                      disabled={person.id === user.id}
                      onChange={(event) =>
                        update(person, {
                          role: oneOf(CONSOLE_ROLES, event.target.value, person.role),
                        })
                      }
                    >
                      {CONSOLE_ROLES.map((entry) => (
                        <option key={entry}>{entry}</option>
                      ))}
                    </select>
                  </td>
                  <td>
                    {person.disabled ? (
                      <span className="badge status-failed">disabled</span>
                    ) : (
                      <span className="badge status-succeeded">active</span>
                    )}
                  </td>
                  <td>
                    <When at={person.created_at} />
                    <div className="hint">by {person.created_by}</div>
                  </td>
                  <td>
                    {person.id === user.id ? (
                      <span className="hint">you</span>
                    ) : (
                      <ConfirmButton
                        label={person.disabled ? 'Enable' : 'Disable'}
                        tone={person.disabled ? 'primary' : 'danger'}
                        question={
                          person.disabled
                            ? `Let ${person.email} sign in again?`
                            : `Sign ${person.email} out and block sign-in?`
                        }
                        onConfirm={() => update(person, { disabled: !person.disabled })}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </>
  );
}
