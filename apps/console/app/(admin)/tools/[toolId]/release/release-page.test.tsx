// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { PathParamsContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../../../components/session';
import { problem, respond, stubFetch } from '../../../../lib/testing/stub-fetch';
import { RELEASE, TOOL, TOOL_ID, usageOf, VERSIONS } from '../../__fixtures__/tool-with-draft';
import ReleasePage from './page';

let restore: () => void = () => undefined;
afterEach(() => {
  cleanup();
  restore();
});

function showRelease() {
  const network = stubFetch(
    respond(['GET', `/v1/tools/${TOOL_ID}`], 200, TOOL),
    respond(['GET', `/v1/tools/${TOOL_ID}/release`], 200, RELEASE),
    respond(['GET', `/v1/tools/${TOOL_ID}/versions`], 200, { items: VERSIONS }),
    respond(['GET', `/v1/tools/${TOOL_ID}/release/health*`], 404, problem(404, 'No health.')),
    respond(['GET', `/v1/tools/${TOOL_ID}/versions/1.0.0/usage*`], 200, usageOf('1.0.0')),
    respond(['GET', `/v1/tools/${TOOL_ID}/versions/1.1.0/usage*`], 200, usageOf('1.1.0')),
  );
  restore = network.restore;
  const user = {
    id: '4c1d2e3f-0a1b-4c2d-8e3f-5a6b7c8d9e0f',
    email: 'a@x.io',
    name: 'A',
    role: 'admin' as const,
  };
  render(
    <SessionProvider value={{ user, signOut: () => undefined }}>
      <PathParamsContext.Provider value={{ toolId: TOOL_ID }}>
        <ReleasePage />
      </PathParamsContext.Provider>
    </SessionProvider>,
  );
  return network;
}

describe('the release page', () => {
  it('preselects no version to set stable or to deprecate', async () => {
    showRelease();
    const stable = await screen.findByLabelText<HTMLSelectElement>('Version');
    expect(stable.value).toBe('');
    expect(screen.getByRole('button', { name: 'Set stable' })).toHaveProperty('disabled', true);
    const deprecate = screen.getByLabelText<HTMLSelectElement>('Version to deprecate');
    expect(deprecate.value).toBe('');
    expect(screen.queryByRole('form', { name: /Deprecate/ })).toBeNull();
    // the running canary is marked, so nobody deprecates it by mistake
    expect(deprecate.textContent).toContain('1.1.0 (canary)');
  });

  it('names who made the last change by key name and team', async () => {
    showRelease();
    const header = await screen.findByText('release-bot');
    expect(header.closest('[title]')?.getAttribute('title')).toBe(RELEASE.updated_by);
    expect(screen.getByText('· payments', { exact: false })).toBeTruthy();
  });

  it('says who still calls the stable version before changing it, and sends nothing until confirmed', async () => {
    const network = showRelease();
    fireEvent.change(await screen.findByLabelText('Version'), { target: { value: '1.1.0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set stable' }));
    const confirm = screen.getByRole('group', { name: 'Confirm: Set stable' });
    expect(confirm.textContent).toContain('Callers who do not pin a version stop getting 1.0.0');
    expect(
      await screen.findByText(
        /12 calls to 1\.0\.0 in the last 7 days from checkout-service \(payments\)/,
      ),
    ).toBeTruthy();
    expect(network.sent.some((request) => request.method !== 'GET')).toBe(false);
  });

  it('says whose calls move back before rolling back the canary', async () => {
    showRelease();
    fireEvent.click(await screen.findByRole('button', { name: 'Roll back' }));
    const confirm = screen.getByRole('group', { name: 'Confirm: Roll back' });
    expect(confirm.textContent).toContain('Stop the canary 1.1.0 and serve 1.0.0 to everyone?');
    expect(await screen.findByText(/12 calls to 1\.1\.0/)).toBeTruthy();
  });
});
