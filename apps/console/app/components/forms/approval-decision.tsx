'use client';

import { useId, useState } from 'react';
import { routes, type Actors, type Approval } from '@toolgate/contract';
import { apiRequest, describeError } from '../../lib/api';
import { ActorName } from '../actor-name';
import { JsonView } from '../json-view';

export interface ApprovalDecisionProps {
  approval: Approval;
  /** False for viewers: the form says why instead of offering buttons. */
  allowed: boolean;
  now: number;
  /** The call's arguments, shown again in the approval's confirmation; undefined while loading. */
  callArguments?: unknown;
  /** Who the approval's actors are (the list answer's `actors`). */
  actors?: Actors;
  onDecided?: (approval: Approval) => void;
}

/** Approves or denies one pending call, with a reason (required to deny: the model reads it). */
export function ApprovalDecision({
  approval,
  allowed,
  now,
  callArguments,
  actors,
  onDecided,
}: ApprovalDecisionProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [decided, setDecided] = useState<Approval | null>(null);
  const [confirming, setConfirming] = useState(false);

  const expired =
    approval.status === 'expired' ||
    (approval.status === 'pending' && Date.parse(approval.expires_at) <= now);
  const current = decided ?? approval;

  if (current.status !== 'pending' || expired) {
    const label = expired && current.status === 'pending' ? 'expired' : current.status;
    return (
      <p className={`badge status-${label}`} role="status">
        {label === 'expired' ? (
          'Expired — the call was not run'
        ) : (
          <>
            {label} by <ActorName actor={current.decided_by} actors={actors} />
          </>
        )}
        {current.decision_reason ? `: ${current.decision_reason}` : ''}
      </p>
    );
  }
  if (!allowed) return <p className="hint">Only approvers and admins can decide approvals.</p>;

  const decide = (decision: 'approve' | 'deny') => {
    const trimmed = reason.trim();
    if (decision === 'deny' && trimmed === '') {
      setError('Give a reason to deny: it is shown to the model and the requester.');
      return;
    }
    setError(null);
    setBusy(true);
    apiRequest(routes.decideApproval, {
      params: { approvalId: approval.id },
      body: { decision, ...(trimmed === '' ? {} : { reason: trimmed }) },
    }).then(
      (result) => {
        setBusy(false);
        setDecided(result);
        onDecided?.(result);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(describeError(failure));
      },
    );
  };

  return (
    <div
      className="decision-form"
      role="group"
      aria-label={`Decide approval for call ${approval.call_id}`}
    >
      <label htmlFor={`${id}-reason`}>Reason</label>
      <textarea
        id={`${id}-reason`}
        rows={2}
        value={reason}
        aria-invalid={error !== null}
        onChange={(event) => setReason(event.target.value)}
        placeholder="Why you approve or deny (required to deny)"
      />
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {confirming ? (
        <div className="confirm-block" role="group" aria-label="Confirm: approve">
          <p>
            Run <strong>v{approval.tool_version}</strong> of this tool once, with exactly these
            arguments?
          </p>
          <JsonView value={callArguments} highlightDestructive label="Arguments to approve" />
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={busy}
              autoFocus
              onClick={() => {
                setConfirming(false);
                decide('approve');
              }}
            >
              Yes, approve and run
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      <div className="actions">
        <button
          type="button"
          className="primary"
          // approving what one has not seen is what the confirmation prevents
          disabled={busy || confirming || callArguments === undefined}
          onClick={() => setConfirming(true)}
        >
          Approve…
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => decide('deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}
