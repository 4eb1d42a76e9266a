// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setCsrfToken } from '../../lib/api';
import { respond, stubFetch } from '../../lib/testing/stub-fetch';
import { DeprecateForm } from './deprecate-form';

const TOOL = '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11';
const USAGE = {
  tool: 'orders.refund',
  version: '1.0.0',
  window: '7d',
  callers: [
    {
      team_id: '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90',
      team_name: 'Payments',
      key_id: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
      key_name: 'checkout-prod',
      actor: 'key:9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
      calls: 42,
      last_call_at: '2026-01-01T10:00:00Z',
    },
  ],
};
let restore: () => void = () => undefined;

beforeEach(() => setCsrfToken('csrf-abc'));
afterEach(() => {
  cleanup();
  restore();
});

describe('DeprecateForm', () => {
  it('shows who still calls the version, asks to confirm, then sends sunset and successor', async () => {
    const network = stubFetch(
      respond(['GET', `/v1/tools/${TOOL}/versions/1.0.0/usage?window=7d`], 200, USAGE),
      (request) =>
        request.method === 'POST'
          ? {
              status: 200,
              body: {
                tool_id: TOOL,
                version: '1.0.0',
                status: 'published',
                schema_version: '1.0',
                created_by: 'user:ada@example.com',
                created_at: '2025-12-01T00:00:00Z',
                deprecated_at: '2026-01-01T00:00:00Z',
                sunset_at: (request.body as { sunset_at: string }).sunset_at,
                successor_version: '2.0.0',
                brownouts: [],
              },
            }
          : undefined,
    );
    restore = network.restore;
    const onDeprecated = vi.fn();
    render(
      <DeprecateForm
        toolId={TOOL}
        version="1.0.0"
        successors={['2.0.0']}
        onDeprecated={onDeprecated}
      />,
    );

    expect(await screen.findByText('checkout-prod')).toBeTruthy();
    expect(screen.getByText('Payments')).toBeTruthy();
    expect(screen.getByText('42')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Sunset'), { target: { value: '2099-03-01T12:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deprecate 1.0.0…' }));
    expect(network.sent.filter((request) => request.method === 'POST')).toHaveLength(0);
    expect(screen.getByText(/42 calls in the last 7 days/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm deprecation of 1.0.0' }));

    expect(await screen.findByText(/Version 1.0.0 is deprecated/)).toBeTruthy();
    const post = network.sent.find((request) => request.method === 'POST');
    expect(post).toMatchObject({
      url: `/v1/tools/${TOOL}/versions/1.0.0/deprecate`,
      headers: { 'x-csrf-token': 'csrf-abc' },
      body: { sunset_at: new Date('2099-03-01T12:00').toISOString(), successor: '2.0.0' },
    });
    expect(onDeprecated).toHaveBeenCalledOnce();
  });

  it('marks a past sunset inline and keeps the button disabled', async () => {
    const network = stubFetch(
      respond(['GET', `/v1/tools/${TOOL}/versions/1.0.0/usage?window=7d`], 200, {
        ...USAGE,
        callers: [],
      }),
    );
    restore = network.restore;
    render(<DeprecateForm toolId={TOOL} version="1.0.0" successors={[]} />);
    expect(await screen.findByText('Nobody called 1.0.0 in the last 7 days.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Sunset'), { target: { value: '2001-01-01T00:00' } });
    expect(screen.getByText('The sunset must be in the future.')).toBeTruthy();
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Deprecate 1.0.0…' }).disabled,
    ).toBe(true);
    expect(network.sent.every((request) => request.method === 'GET')).toBe(true);
  });
});
