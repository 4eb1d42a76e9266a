'use client';

import { useState } from 'react';
import { routes, type Team } from '@toolgate/contract';
import { apiRequest, describeError } from '../../lib/api';

export interface SelfApprovalSettingsProps {
  teams: readonly Team[];
  /** Only admins change team settings; others see them. */
  disabled: boolean;
  onChanged: (team: Team) => void;
}

/**
 * Each team's `allow_self_approval`: off (the default), whoever made a destructive call cannot
 * decide it and another member must; on, the requester may approve its own calls.
 */
export function SelfApprovalSettings({ teams, disabled, onChanged }: SelfApprovalSettingsProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const change = (team: Team, allow: boolean) => {
    setError(null);
    setBusy(team.id);
    apiRequest(routes.updateTeam, {
      params: { teamId: team.id },
      body: { allow_self_approval: allow },
    }).then(
      (updated) => {
        setBusy(null);
        onChanged(updated);
      },
      (failure: unknown) => {
        setBusy(null);
        setError(describeError(failure));
      },
    );
  };

  return (
    <section aria-labelledby="self-approval-heading">
      <h2 id="self-approval-heading">Self-approval</h2>
      <p className="hint">
        By default a call cannot be approved by the key or person that made it: another member
        decides. A team can allow its members to approve their own calls.
      </p>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <ul>
        {teams.map((team) => (
          <li key={team.id}>
            <label className="inline">
              <input
                type="checkbox"
                checked={team.allow_self_approval}
                disabled={disabled || busy !== null}
                onChange={(event) => change(team, event.target.checked)}
              />{' '}
              {team.name}: allow self-approval
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}
