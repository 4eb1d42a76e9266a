'use client';

import { useState } from 'react';
import { routes, type Policy } from '@toolgate/contract';
import { apiRequest, describeError } from '../../lib/api';
import { ConfirmButton } from '../../components/confirm-button';
import { PolicyEditor } from '../../components/forms/policy-editor';
import { canAdminister, useSession } from '../../components/session';
import { Loaded } from '../../components/states';
import { useApi } from '../../components/use-api';
import { When } from '../../components/when';

const STARTER = `// Allows every call. Destructive tools still wait for a person: their behavior asks for approval.
permit (principal, action, resource);
`;

export default function PoliciesPage() {
  const { user } = useSession();
  const admin = canAdminister(user.role);
  const policies = useApi(routes.listPolicies, {});
  // Every console role may read the teams: the sample call of "Test policy" is one team's.
  const teams = useApi(routes.listTeams, {});
  const [editing, setEditing] = useState<Policy | null>(null);
  const [error, setError] = useState<string | null>(null);

  const activate = (revision: number) => {
    setError(null);
    apiRequest(routes.activatePolicy, { params: { revision } }).then(
      () => policies.reload(),
      (failure: unknown) => setError(describeError(failure)),
    );
  };

  return (
    <>
      <header className="page-header">
        <h1>Policies</h1>
        <p className="hint">
          Cedar policies decide whether a call is allowed, denied or waits for approval. Each save
          is a new revision.
        </p>
      </header>
      <Loaded state={policies} what="policies">
        {(page) => {
          const sorted = [...page.items].sort((left, right) => right.revision - left.revision);
          const active = sorted.find((policy) => policy.active) ?? null;
          const base = editing ?? active;
          return (
            <div className="split wide-right">
              <section className="card" aria-labelledby="history-heading">
                <h3 id="history-heading">Version history</h3>
                {error ? (
                  <p className="field-error" role="alert">
                    {error}
                  </p>
                ) : null}
                {sorted.length === 0 ? (
                  <p className="hint">
                    No policy yet: calls follow the default decision. Write the first one here.
                  </p>
                ) : null}
                <ol className="history">
                  {sorted.map((policy) => (
                    <li key={policy.id}>
                      <strong>Revision {policy.revision}</strong>{' '}
                      {policy.active ? (
                        <span className="badge status-succeeded">active</span>
                      ) : null}
                      <div className="hint">
                        <When at={policy.created_at} /> by {policy.created_by}
                      </div>
                      <div className="actions">
                        <button type="button" onClick={() => setEditing(policy)}>
                          Open in editor
                        </button>
                        {!policy.active && admin ? (
                          <ConfirmButton
                            label="Activate"
                            tone="primary"
                            question={`Make revision ${policy.revision} the active policy?`}
                            onConfirm={() => activate(policy.revision)}
                          />
                        ) : null}
                      </div>
                    </li>
                  ))}
                </ol>
              </section>
              <section className="card" aria-labelledby="editor-heading">
                <h3 id="editor-heading">
                  {base ? `Editing from revision ${base.revision}` : 'New policy'}
                </h3>
                {!admin ? (
                  <p className="hint">Only admins can save policies; you can still read them.</p>
                ) : null}
                <PolicyEditor
                  key={base?.id ?? 'new'}
                  initialText={base?.text ?? STARTER}
                  disabled={!admin}
                  teams={teams.data?.items ?? []}
                  onSaved={() => {
                    setEditing(null);
                    policies.reload();
                  }}
                />
              </section>
            </div>
          );
        }}
      </Loaded>
    </>
  );
}
