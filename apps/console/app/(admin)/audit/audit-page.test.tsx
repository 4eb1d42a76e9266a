// @vitest-environment happy-dom
import type { AuditEvent, AuditVerification } from '@toolgate/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SearchParamsContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { respond, stubFetch } from '../../lib/testing/stub-fetch';
import AuditPage from './page';

const HASH = 'a'.repeat(64);
const EVENT: AuditEvent = {
  seq: '40123',
  id: '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11',
  occurred_at: '2026-12-04T10:00:00.000Z',
  actor: 'user:ada@example.com',
  team_id: null,
  action: 'tool.created',
  entity_type: 'tool',
  entity_id: 'b0a4f3c2-1d2e-4f5a-8b9c-0d1e2f3a4b5c',
  data: { name: 'orders.refund' },
  prev_hash: HASH,
  hash: HASH,
};
const CHECKPOINT = { seq: '40000', hash: HASH, verified_at: '2026-12-04T09:00:00.000Z' };
const INCREMENTAL: AuditVerification = {
  ok: true,
  mode: 'incremental',
  from_seq: '40000',
  to_seq: '40123',
  checked: 124,
  head: { seq: '40123', hash: HASH },
  checkpoint: CHECKPOINT,
  first_broken_link: null,
  verified_at: '2026-12-04T10:00:05.000Z',
  duration_ms: 9,
};
const FULL: AuditVerification = {
  ...INCREMENTAL,
  mode: 'full',
  from_seq: '1',
  checked: 40123,
  duration_ms: 1140,
};
let restore: () => void = () => undefined;

const ACTORS = {
  'user:ada@example.com': {
    kind: 'user' as const,
    id: 'ada@example.com',
    name: 'Ada Lovelace',
    team_name: null,
  },
};

afterEach(() => {
  cleanup();
  restore();
  window.history.replaceState(null, '', '/');
});

function stubAudit(verification: AuditVerification) {
  const network = stubFetch(
    respond(['GET', '/v1/audit?limit=25'], 200, {
      items: [EVENT],
      next_cursor: null,
      actors: ACTORS,
    }),
    respond(['GET', '/v1/audit?actor=*'], 200, {
      items: [EVENT],
      next_cursor: null,
      actors: ACTORS,
    }),
    respond(['GET', '/v1/audit/verify'], 200, verification),
    respond(['GET', '/v1/audit/verify?full=true'], 200, FULL),
  );
  restore = network.restore;
  return network;
}

describe('the audit page', () => {
  it('names the actor, with the recorded id on hover', async () => {
    stubAudit(INCREMENTAL);
    render(<AuditPage />);
    const name = await screen.findByText('Ada Lovelace');
    expect(name.closest('[title]')?.getAttribute('title')).toBe('user:ada@example.com');
  });

  it('reads its filters from the URL and writes applied ones back, in ISO date order', async () => {
    const network = stubAudit(INCREMENTAL);
    window.history.replaceState(null, '', '/audit?actor=user%3Aada%40example.com');
    render(
      <SearchParamsContext.Provider value={new URLSearchParams('actor=user%3Aada%40example.com')}>
        <AuditPage />
      </SearchParamsContext.Provider>,
    );
    await screen.findByText('tool.created');
    expect(network.sent.map((request) => request.url)).toContain(
      '/v1/audit?actor=user%3Aada%40example.com&limit=25',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Actor').value).toBe('user:ada@example.com');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-12-04 09:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText('tool.created');
    const query = new URLSearchParams(window.location.search);
    expect(query.get('from')).toBe('2026-12-04 09:30');
    const sent = network.sent.map((request) => request.url).at(-1) ?? '';
    expect(new URL(sent, 'http://console').searchParams.get('from')).toBe(
      new Date('2026-12-04T09:30').toISOString(),
    );
  });

  it('shows what the verification from the checkpoint found, without walking the chain', async () => {
    const network = stubAudit(INCREMENTAL);
    render(<AuditPage />);
    const status = await screen.findByText(/Chain verified through #40123/);
    expect(status.textContent).toContain('incremental: 124 events from the checkpoint at #40000');
    expect(status.textContent).toContain('in 9 ms');
    expect(network.sent.map((request) => request.url)).toContain('/v1/audit/verify');
    expect(network.sent.map((request) => request.url)).not.toContain('/v1/audit/verify?full=true');
    expect(await screen.findByText('tool.created')).toBeTruthy();
  });

  it('walks the whole chain when asked', async () => {
    const network = stubAudit(INCREMENTAL);
    render(<AuditPage />);
    await screen.findByText(/incremental: 124 events/);
    fireEvent.click(screen.getByRole('button', { name: 'Verify the whole chain' }));
    const status = await screen.findByText(/full: 40123 events from the first, in 1\.14 s/);
    expect(status.textContent).toContain('Chain verified through #40123');
    expect(network.sent.map((request) => request.url)).toContain('/v1/audit/verify?full=true');
  });

  it('names the first broken link and how far the chain is intact', async () => {
    stubAudit({
      ...INCREMENTAL,
      ok: false,
      to_seq: '40011',
      checked: 12,
      first_broken_link: { seq: '40012', id: EVENT.id, reason: 'hash_mismatch' },
    });
    render(<AuditPage />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The audit chain is broken.');
    expect(alert.textContent).toContain('#40012, its content was changed');
    expect(alert.textContent).toContain('Intact through #40011');
    expect(screen.queryByText(/Chain verified/)).toBeNull();
  });
});
