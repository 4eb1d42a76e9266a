// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { respond, stubFetch, type SentRequest } from '../../lib/testing/stub-fetch';
import { CALLS_FROM, CALLS_METRICS, callOf } from './__fixtures__/calls';
import { bucketFilterOf, searchWithBucketFilter } from './calls-charts';
import CallsPage from './page';

const HOUR = 3_600_000;
const LAST_BUCKET = {
  from: new Date(CALLS_FROM + 2 * HOUR).toISOString(),
  to: new Date(CALLS_FROM + 3 * HOUR).toISOString(),
};

let restore: () => void = () => undefined;
beforeEach(() => window.history.replaceState(null, '', '/calls'));
afterEach(() => {
  cleanup();
  restore();
});

function network() {
  const stub = stubFetch(
    respond(['GET', '/v1/metrics/calls?window=24h'], 200, CALLS_METRICS),
    respond(['GET', '/v1/calls?*'], 200, {
      items: [callOf(1), callOf(2, 'failed')],
      next_cursor: null,
    }),
  );
  restore = stub.restore;
  return stub;
}

/** The query of every calls list request sent so far. */
function listQueries(sent: SentRequest[]): Array<Record<string, string>> {
  return sent
    .filter((request) => request.url.startsWith('/v1/calls?'))
    .map((request) => Object.fromEntries(new URL(request.url, 'http://console').searchParams));
}

describe('the Calls page', () => {
  it('charts volume by status, error rate and latency above the table', async () => {
    network();
    render(<CallsPage />);
    const bars = (await screen.findByText('Calls by status', { selector: 'figcaption' })).closest(
      'figure',
    )!;
    // 5 succeeded; then 3 succeeded, 2 failed, 1 queued.
    expect(bars.querySelectorAll('.recharts-bar-rectangle path')).toHaveLength(4);
    const errorRate = screen.getByText('Error rate', { selector: 'figcaption' }).closest('figure')!;
    expect(errorRate.querySelectorAll('circle.chart-point')).toHaveLength(2);
    const latency = screen.getByText('Latency', { selector: 'figcaption' }).closest('figure')!;
    expect(latency.querySelectorAll('path.recharts-line-curve')).toHaveLength(2);
    expect(await screen.findAllByRole('row')).toHaveLength(3);
  });

  it("filters the table to a clicked bar's time range and status, in the URL", async () => {
    const { sent } = network();
    render(<CallsPage />);
    const bars = (await screen.findByText('Calls by status', { selector: 'figcaption' })).closest(
      'figure',
    )!;
    const failed = bars.querySelectorAll('.recharts-bar')[1]!.querySelectorAll('path');
    expect(failed).toHaveLength(1);
    fireEvent.click(failed[0]!);

    expect(await screen.findByText(/Showing failed calls received from/)).toBeTruthy();
    expect(bucketFilterOf(window.location.search)).toEqual({ ...LAST_BUCKET, status: 'failed' });
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('failed');
    await screen.findAllByRole('row');
    expect(listQueries(sent).at(-1)).toEqual({
      status: 'failed',
      ...LAST_BUCKET,
      limit: '50',
    });

    fireEvent.click(screen.getByRole('button', { name: "Clear the chart's filter" }));
    expect(window.location.search).toBe('');
    expect(await screen.findByText(/Click a bar/)).toBeTruthy();
    expect(listQueries(sent).at(-1)).toEqual({ limit: '50' });
  });

  it('opens with the filter a shared URL carries', async () => {
    window.history.replaceState(
      null,
      '',
      `/calls${searchWithBucketFilter('?tab=x', { ...LAST_BUCKET, status: 'queued' })}`,
    );
    const { sent } = network();
    render(<CallsPage />);
    expect(await screen.findByText(/Showing queued calls received from/)).toBeTruthy();
    await screen.findAllByRole('row');
    expect(listQueries(sent).at(-1)).toMatchObject({ status: 'queued', ...LAST_BUCKET });
    expect(new URLSearchParams(window.location.search).get('tab')).toBe('x');
  });

  it('follows the browser back to the unfiltered list', async () => {
    const { sent } = network();
    render(<CallsPage />);
    const bars = (await screen.findByText('Calls by status', { selector: 'figcaption' })).closest(
      'figure',
    )!;
    fireEvent.click(bars.querySelectorAll('.recharts-bar')[0]!.querySelectorAll('path')[0]!);
    expect(await screen.findByText(/Showing succeeded calls received from/)).toBeTruthy();

    window.history.replaceState(null, '', '/calls');
    fireEvent(window, new PopStateEvent('popstate'));
    expect(await screen.findByText(/Click a bar/)).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('');
    await screen.findAllByRole('row');
    expect(listQueries(sent).at(-1)).toEqual({ limit: '50' });
  });

  it('ignores a malformed time range in the URL', () => {
    expect(bucketFilterOf('?from=yesterday&to=now')).toBeNull();
    expect(bucketFilterOf(`?from=${LAST_BUCKET.from}&to=${LAST_BUCKET.to}&status=gone`)).toEqual(
      LAST_BUCKET,
    );
  });
});
