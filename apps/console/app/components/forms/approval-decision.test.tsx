// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setCsrfToken } from '../../lib/api';
import type { Approval } from '@toolgate/contract';
import { problem, respond, stubFetch } from '../../lib/testing/stub-fetch';
import { ApprovalDecision } from './approval-decision';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const APPROVAL: Approval = {
  id: '0b8f1d8e-3a43-4c9c-9d7c-8d3f0a6b1c22',
  call_id: 'a7c1f1f4-1b2c-4d3e-8f9a-0b1c2d3e4f50',
  tool_id: '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11',
  tool_version: '1.0.0',
  arguments_hash: 'b1946ac92492d2347c6235b4d2611184',
  reason: 'destructive tool',
  policy_reason: null,
  status: 'pending',
  requested_by: 'key:k1',
  decided_by: null,
  decision_reason: null,
  created_at: '2026-01-01T11:59:00Z',
  expires_at: '2026-01-01T12:10:00Z',
  decided_at: null,
  consumed_at: null,
};
const URL = `/v1/approvals/${APPROVAL.id}/decision`;
let restore: () => void = () => undefined;

beforeEach(() => setCsrfToken('csrf-ap'));
afterEach(() => {
  cleanup();
  restore();
});

describe('ApprovalDecision', () => {
  it('approves with the reason and the CSRF token, then shows who decided', async () => {
    const network = stubFetch(
      respond(['POST', URL], 200, {
        ...APPROVAL,
        status: 'approved',
        decided_by: 'user:ada@example.com',
        decision_reason: 'checked the ticket',
      }),
    );
    restore = network.restore;
    const onDecided = vi.fn();
    render(
      <ApprovalDecision
        approval={APPROVAL}
        allowed
        now={NOW}
        callArguments={{ table: 'users', cascade: true }}
        actors={{
          'user:ada@example.com': {
            kind: 'user',
            id: 'ada@example.com',
            name: 'Ada Lovelace',
            team_name: null,
          },
        }}
        onDecided={onDecided}
      />,
    );
    fireEvent.change(screen.getByLabelText('Reason'), {
      target: { value: '  checked the ticket ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Approve…' }));
    // nothing is sent before the person has seen the exact arguments and confirmed them
    expect(network.sent).toHaveLength(0);
    const confirmation = screen.getByRole('group', { name: 'Confirm: approve' });
    expect(confirmation.textContent).toContain('"table"');
    expect(confirmation.textContent).toContain('"users"');
    expect(confirmation.textContent).toContain('"cascade"');
    fireEvent.click(screen.getByRole('button', { name: 'Yes, approve and run' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('approved by Ada Lovelace');
    expect(status.textContent).toContain(': checked the ticket');
    expect(status.querySelector('[title="user:ada@example.com"]')).not.toBeNull();
    expect(network.sent).toHaveLength(1);
    expect(network.sent[0]).toMatchObject({
      method: 'POST',
      url: URL,
      body: { decision: 'approve', reason: 'checked the ticket' },
      headers: { 'x-csrf-token': 'csrf-ap' },
    });
    expect(onDecided).toHaveBeenCalledOnce();
  });

  it('needs a reason to deny', async () => {
    const network = stubFetch(
      respond(['POST', URL], 200, {
        ...APPROVAL,
        status: 'denied',
        decided_by: 'user:ada@example.com',
        decision_reason: 'wrong table',
      }),
    );
    restore = network.restore;
    render(<ApprovalDecision approval={APPROVAL} allowed now={NOW} />);
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    expect(screen.getByRole('alert').textContent).toContain('Give a reason to deny');
    expect(network.sent).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'wrong table' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    expect(await screen.findByText(/denied by/)).toBeTruthy();
    expect(network.sent[0]?.body).toEqual({ decision: 'deny', reason: 'wrong table' });
  });

  it('shows an expired approval as expired, without buttons', () => {
    restore = stubFetch().restore;
    render(
      <ApprovalDecision approval={APPROVAL} allowed now={Date.parse('2026-01-01T12:30:00Z')} />,
    );
    expect(screen.getByRole('status').textContent).toContain('Expired');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers no buttons to a viewer', () => {
    restore = stubFetch().restore;
    render(<ApprovalDecision approval={APPROVAL} allowed={false} now={NOW} />);
    expect(screen.getByText('Only approvers and admins can decide approvals.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve…' })).toBeNull();
  });

  it('shows the API refusal, e.g. when someone else decided first', async () => {
    const network = stubFetch(
      respond(
        ['POST', URL],
        409,
        problem(409, 'The approval was already decided.', { code: 'conflict' }),
      ),
    );
    restore = network.restore;
    render(<ApprovalDecision approval={APPROVAL} allowed now={NOW} callArguments={{}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Approve…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, approve and run' }));
    expect((await screen.findByRole('alert')).textContent).toContain('already decided');
  });
});
