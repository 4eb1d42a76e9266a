// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SearchParamsContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { respond, stubFetch, type SentRequest } from '../../lib/testing/stub-fetch';
import { runSummaryOf } from './__fixtures__/runs';
import RunsPage from './page';

let restore: () => void = () => undefined;
beforeEach(() => window.history.replaceState(null, '', '/runs'));
afterEach(() => {
  cleanup();
  restore();
});

function network(...pages: Parameters<typeof respond>[]) {
  const stub = stubFetch(...pages.map((page) => respond(...page)));
  restore = stub.restore;
  return stub;
}

/** The query of every runs list request sent so far. */
function listQueries(sent: SentRequest[]): Array<Record<string, string>> {
  return sent
    .filter((request) => request.url.startsWith('/v1/runs?'))
    .map((request) => Object.fromEntries(new URL(request.url, 'http://console').searchParams));
}

describe('the Runs page', () => {
  it('lists runs with their mode, status, failed step and times, each linked to its page', async () => {
    network([
      ['GET', '/v1/runs?*'],
      200,
      { items: [runSummaryOf(2, 'failed'), runSummaryOf(1)], next_cursor: null },
    ]);
    render(<RunsPage />);
    const rows = await screen.findAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain('plan');
    expect(rows[1]!.textContent).toContain('failed');
    expect(rows[1]!.textContent).toContain('ship upstream_unavailable');
    const links = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(links).toEqual([`/runs/${runSummaryOf(2).id}`, `/runs/${runSummaryOf(1).id}`]);
    expect(rows[1]!.querySelectorAll('time')).toHaveLength(2);
  });

  it('keeps the status filter in the URL and sends it to the API', async () => {
    window.history.replaceState(null, '', '/runs?status=awaiting_decision');
    const { sent } = network([['GET', '/v1/runs?*'], 200, { items: [], next_cursor: null }]);
    render(
      <SearchParamsContext.Provider value={new URLSearchParams(window.location.search)}>
        <RunsPage />
      </SearchParamsContext.Provider>,
    );
    expect(await screen.findByText('No runs match.')).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('awaiting_decision');
    expect(listQueries(sent).at(-1)).toEqual({ status: 'awaiting_decision', limit: '50' });

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'failed' } });
    expect(window.location.search).toBe('?status=failed');
    await expect.poll(() => listQueries(sent).at(-1)).toEqual({ status: 'failed', limit: '50' });
  });

  it('pages by cursor', async () => {
    const { sent } = network(
      [['GET', '/v1/runs?cursor=c2*'], 200, { items: [runSummaryOf(1)], next_cursor: null }],
      [['GET', '/v1/runs?*'], 200, { items: [runSummaryOf(2)], next_cursor: 'c2' }],
    );
    render(<RunsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Next page' }));
    await expect.poll(() => listQueries(sent).at(-1)).toEqual({ cursor: 'c2', limit: '50' });
    await screen.findByRole('button', { name: 'Previous page' });
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
  });

  it('says how to start a run when there is none', async () => {
    network([['GET', '/v1/runs?*'], 200, { items: [], next_cursor: null }]);
    render(<RunsPage />);
    const empty = (await screen.findByText('No runs yet.')).closest('.state-empty')!;
    expect(empty.textContent).toContain('POST /v1/runs');
    expect(empty.textContent).toContain('/v1/runs/{runId}/plan');
  });
});
