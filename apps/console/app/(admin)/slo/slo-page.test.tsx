// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { respond, stubFetch } from '../../lib/testing/stub-fetch';
import { SLO_REPORT, SLO_REPORT_EMPTY, SLO_REPORT_ONE_BUCKET } from './__fixtures__/slo-report';
import SloPage from './page';

let restore: () => void = () => undefined;
afterEach(() => {
  cleanup();
  restore();
});

function answer(report: unknown) {
  restore = stubFetch(respond(['GET', '/v1/metrics/slo?window=24h'], 200, report)).restore;
}

/** The chart figure with this caption. */
async function chart(title: string): Promise<HTMLElement> {
  const caption = await screen.findByText(title, { selector: 'figcaption' });
  return caption.closest('figure') as HTMLElement;
}

describe('the SLO page', () => {
  it('draws the SLO lines and marks the breaches of the window', async () => {
    answer(SLO_REPORT);
    render(<SloPage />);

    const success = await chart('Success rate');
    expect(success.querySelectorAll('path.recharts-line-curve')).toHaveLength(1);
    expect(within(success).getByText('SLO 99.5%')).toBeTruthy();
    // 109 of 110 is 99.1%: one breach.
    expect(success.querySelectorAll('circle.chart-breach')).toHaveLength(1);

    const p95 = await chart('p95 latency');
    expect(within(p95).getByText('SLO p95 ≤ 2.00 s')).toBeTruthy();
    expect(p95.querySelectorAll('circle.chart-breach')).toHaveLength(1);

    const approvals = await chart('Destructive calls approved');
    expect(within(approvals).getByText('SLO 100% approved')).toBeTruthy();
    expect(approvals.querySelectorAll('circle.chart-breach')).toHaveLength(1);

    // The per-tool table counts the calls the result cache answered apart.
    const row = (await screen.findByRole('cell', { name: 'search' })).closest('tr') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toContain('12');
    expect(screen.getByRole('columnheader', { name: 'From cache' })).toBeTruthy();

    const wait = await chart('Approval wait');
    expect(wait.querySelectorAll('path.recharts-line-curve')).toHaveLength(2);

    const calls = await chart('Calls');
    expect(calls.querySelectorAll('.recharts-bar-rectangle path')).toHaveLength(4);
  });

  it('draws a line per version, so a canary breaching its SLOs stands out', async () => {
    answer(SLO_REPORT);
    render(<SloPage />);
    await chart('Success rate');
    fireEvent.change(screen.getByLabelText('Lines'), { target: { value: 'version' } });

    const success = await chart('Success rate');
    expect(success.querySelectorAll('path.recharts-line-curve')).toHaveLength(2);
    const legend = [...success.querySelectorAll('.recharts-legend-item-text')].map(
      (item) => item.textContent,
    );
    expect(legend).toEqual(['search@1.0.0', 'search@1.1.0']);
    // Only the canary's 9 of 10 falls short.
    expect(success.querySelectorAll('circle.chart-breach')).toHaveLength(1);
    expect(success.querySelector('[role="img"]')?.getAttribute('aria-label')).toContain(
      'search@1.1.0: latest 100.0%, 1 breach',
    );
    const p95 = await chart('p95 latency');
    expect(p95.querySelectorAll('circle.chart-breach')).toHaveLength(1);
  });

  it('shows a window with one busy bucket as points with their values', async () => {
    answer(SLO_REPORT_ONE_BUCKET);
    render(<SloPage />);
    const p95 = await chart('p95 latency');
    expect(p95.querySelectorAll('circle.chart-point')).toHaveLength(1);
    expect(within(p95).getByText('700 ms')).toBeTruthy();
  });

  it('says there were no calls instead of drawing empty charts', async () => {
    answer(SLO_REPORT_EMPTY);
    render(<SloPage />);
    expect(await screen.findByText('No calls in the last 24h.')).toBeTruthy();
    expect(document.querySelector('.recharts-surface')).toBeNull();
  });
});
