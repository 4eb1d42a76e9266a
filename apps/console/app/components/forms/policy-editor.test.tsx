// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setCsrfToken } from '../../lib/api';
import { problem, respond, stubFetch } from '../../lib/testing/stub-fetch';
import { PolicyEditor } from './policy-editor';

const TEXT = 'forbid (principal, action, resource) when { resource.destructive };';
let restore: () => void = () => undefined;

beforeEach(() => setCsrfToken('csrf-pol'));
afterEach(() => {
  cleanup();
  restore();
});

describe('PolicyEditor', () => {
  it('tests the edited text against a sample call and shows the decision', async () => {
    const network = stubFetch(
      respond(['POST', '/v1/policies/test'], 200, {
        effect: 'deny',
        reason: 'destructive tools are off',
        policy_revision: 'draft',
        matched_rule: 'policy0',
      }),
    );
    restore = network.restore;
    render(<PolicyEditor initialText={TEXT} />);
    fireEvent.change(screen.getByLabelText('Tool name'), { target: { value: 'db.drop' } });
    fireEvent.change(screen.getByLabelText('Arguments (JSON)'), {
      target: { value: '{"table": "users"}' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Test policy' }));

    expect((await screen.findByText('Denied')).parentElement?.textContent).toContain(
      'by policy0 — destructive tools are off',
    );
    expect(network.sent).toHaveLength(1);
    expect(network.sent[0]).toMatchObject({
      method: 'POST',
      url: '/v1/policies/test',
      headers: { 'x-csrf-token': 'csrf-pol' },
      body: { text: TEXT, call: { name: 'db.drop', arguments: { table: 'users' } } },
    });
  });

  it('catches arguments that are not JSON before sending anything', () => {
    const network = stubFetch();
    restore = network.restore;
    render(<PolicyEditor initialText={TEXT} />);
    fireEvent.change(screen.getByLabelText('Tool name'), { target: { value: 'db.drop' } });
    fireEvent.change(screen.getByLabelText('Arguments (JSON)'), {
      target: { value: '{table: users' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Test policy' }));
    expect(screen.getByText(/Not valid JSON/)).toBeTruthy();
    expect(network.sent).toHaveLength(0);
  });

  it('shows Cedar errors inline under the text and saves a valid revision', async () => {
    let attempt = 0;
    const network = stubFetch((request) => {
      if (request.method !== 'POST' || request.url !== '/v1/policies') return undefined;
      attempt += 1;
      return attempt === 1
        ? {
            status: 422,
            body: {
              ...problem(422, 'The policy text is not valid Cedar for this gateway.', {
                code: 'invalid_policy',
                errors: [{ path: '/body/text', message: 'line 2, column 8: unexpected token' }],
              }),
              policy_errors: [{ line: 2, column: 8, message: 'unexpected token' }],
            },
          }
        : {
            status: 201,
            body: {
              id: '5d0c7a4e-8f3b-4c2a-9e1d-7b6a5c4d3e2f',
              scope: 'global',
              team_id: null,
              revision: 2,
              text: 'permit (principal, action, resource);',
              active: true,
              created_by: 'user:ada@example.com',
              created_at: '2026-01-01T00:00:00Z',
            },
          };
    });
    restore = network.restore;
    const onSaved = vi.fn();
    render(<PolicyEditor initialText={'// draft\npermit ('} onSaved={onSaved} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save new revision' }));
    expect(
      (await screen.findByText('line 2, column 8: unexpected token')).closest('ul')?.id,
    ).toBeTruthy();
    expect(screen.getByLabelText('Policy (Cedar)').getAttribute('aria-invalid')).toBe('true');
    // the gutter numbers every line and marks the one the parser stopped at
    const marked = document.querySelectorAll('.line-numbers .error-line');
    expect([...marked].map((line) => line.textContent)).toEqual(['2']);
    expect(document.querySelectorAll('.line-numbers span').length).toBeGreaterThanOrEqual(14);

    fireEvent.change(screen.getByLabelText('Policy (Cedar)'), {
      target: { value: 'permit (principal, action, resource);' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save new revision' }));
    expect(await screen.findByText('Saved revision 2 and made it active.')).toBeTruthy();
    expect(network.sent.map((request) => request.body)).toEqual([
      { text: '// draft\npermit (', activate: true },
      { text: 'permit (principal, action, resource);', activate: true },
    ]);
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ revision: 2 }));
  });
});
