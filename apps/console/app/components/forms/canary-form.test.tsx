// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setCsrfToken } from '../../lib/api';
import { problem, respond, stubFetch } from '../../lib/testing/stub-fetch';
import { CanaryForm } from './canary-form';

const TOOL = '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11';
let restore: () => void = () => undefined;

beforeEach(() => setCsrfToken('csrf-123'));
afterEach(() => {
  cleanup();
  restore();
});

describe('CanaryForm', () => {
  it('sends the version and slider percentage with the CSRF token and reports the new split', async () => {
    const network = stubFetch(
      respond(['PUT', `/v1/tools/${TOOL}/release/canary`], 200, {
        tool_id: TOOL,
        stable_version: '1.0.0',
        canary_version: '2.0.0',
        canary_percent: 20,
        previous_stable_version: null,
        updated_by: 'user:ada@example.com',
        updated_at: '2026-01-01T00:00:00Z',
      }),
    );
    restore = network.restore;
    const onSaved = vi.fn();
    render(
      <CanaryForm
        toolId={TOOL}
        versions={['1.0.0', '2.0.0']}
        release={{ stable_version: '1.0.0', canary_version: null, canary_percent: 0 }}
        onSaved={onSaved}
      />,
    );

    expect(screen.getByLabelText<HTMLSelectElement>('Canary version').value).toBe('2.0.0');
    fireEvent.change(screen.getByLabelText('Canary percentage'), { target: { value: '20' } });
    expect(screen.getByText('20%')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save canary' }));

    expect(await screen.findByText('Canary 2.0.0 now gets 20% of callers.')).toBeTruthy();
    expect(network.sent).toHaveLength(1);
    expect(network.sent[0]).toMatchObject({
      url: `/v1/tools/${TOOL}/release/canary`,
      method: 'PUT',
      body: { version: '2.0.0', percent: 20 },
      headers: { 'x-csrf-token': 'csrf-123', 'content-type': 'application/json' },
    });
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ canary_percent: 20 }));
  });

  it('refuses without a stable version and sends nothing', () => {
    const network = stubFetch();
    restore = network.restore;
    render(
      <CanaryForm
        toolId={TOOL}
        versions={['1.0.0']}
        release={{ stable_version: null, canary_version: null, canary_percent: 0 }}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save canary' }));
    expect(screen.getByRole('alert').textContent).toContain('Set a stable version first');
    expect(network.sent).toHaveLength(0);
  });

  it('shows the problem the API answers', async () => {
    const network = stubFetch(
      respond(
        ['PUT', `/v1/tools/${TOOL}/release/canary`],
        409,
        problem(409, 'Version 2.0.0 is deprecated.', { code: 'conflict' }),
      ),
    );
    restore = network.restore;
    render(
      <CanaryForm
        toolId={TOOL}
        versions={['1.0.0', '2.0.0']}
        release={{ stable_version: '1.0.0', canary_version: null, canary_percent: 0 }}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save canary' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Version 2.0.0 is deprecated.',
    );
  });
});
