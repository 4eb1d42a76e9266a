'use client';

import { useId, useState } from 'react';
import { routes, type Approval } from '@toolgate/contract';
import { apiRequest, describeError } from '../../lib/api';

export interface ApprovalDecisionProps {
  approval: Approval;
  /** False for viewers: the form says why instead of offering buttons. */
  allowed: boolean;
  now: number;
  onDecided?: (approval: Approval) => void;
}

/** Approves or denies one pending call, with a reason (required to deny: the model reads it). */
export function ApprovalDecision({ approval, allowed, now, onDecided }: ApprovalDecisionProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [decided, setDecided] = useState<Approval | null>(null);

  const expired =
    approval.status === 'expired' ||
    (approval.status === 'pending' && Date.parse(approval.expires_at) <= now);
  const current = decided ?? approval;

  if (current.status !== 'pending' || expired) {
    const label = expired && current.status === 'pending' ? 'expired' : current.status;
    return (
      <p className={`badge status-${label}`} role="status">
        {label === 'expired'
          ? 'Expired — the call was not run'
          : `${label} by ${current.decided_by ?? 'unknown'}`}
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
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => decide('approve')}>
          Approve
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => decide('deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}
