// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { respond, stubFetch } from '../../../../lib/testing/stub-fetch';
import { HEALTH, HISTORY, TOOL_ID } from './__fixtures__/release-history';
import { guardLines, ReleaseCharts } from './release-charts';

let restore: () => void = () => undefined;
afterEach(() => {
  cleanup();
  restore();
});

async function figure(title: string): Promise<HTMLElement> {
  return (await screen.findByText(title, { selector: 'figcaption' })).closest('figure')!;
}

describe('the release charts', () => {
  it('draw canary and stable side by side with the guard thresholds, marking the canary only', async () => {
    const network = stubFetch(
      respond(['GET', `/v1/tools/${TOOL_ID}/release/history?window=24h`], 200, HISTORY),
    );
    restore = network.restore;
    render(<ReleaseCharts toolId={TOOL_ID} health={HEALTH} />);

    const success = await figure('Success rate');
    expect(success.querySelectorAll('path.recharts-line-curve')).toHaveLength(2);
    const legend = [...success.querySelectorAll('.recharts-legend-item-text')].map(
      (item) => item.textContent,
    );
    expect(legend).toEqual(['stable 1.0.0', 'canary 1.1.0']);
    // 99 % − 5 points: the canary's 80 % falls below.
    expect(within(success).getByText('guard: below 94.0%')).toBeTruthy();
    expect(success.querySelectorAll('circle.chart-breach')).toHaveLength(1);

    // max(400 × 1.5, 400 + 50) = 600 ms: the canary's 2 s crosses, stable never counts.
    const p95 = await figure('p95 latency');
    expect(within(p95).getByText('guard: above 600 ms')).toBeTruthy();
    expect(p95.querySelectorAll('circle.chart-breach')).toHaveLength(1);

    const validation = await figure('Validation failures');
    expect(within(validation).getByText('guard: above 5.0%')).toBeTruthy();
    expect(validation.querySelectorAll('circle.chart-breach')).toHaveLength(1);

    const share = await figure('Share served to the canary');
    expect(within(share).getByText('asked 20%')).toBeTruthy();
    expect(share.querySelectorAll('path.recharts-line-curve')).toHaveLength(1);
    expect(share.querySelectorAll('circle.chart-breach')).toHaveLength(0);
    expect(share.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe(
      'Share served to the canary. canary 1.1.0: latest 30%',
    );
  });

  it('draws no threshold without a canary or stable figures', () => {
    expect(guardLines(undefined)).toEqual({});
    expect(guardLines({ ...HEALTH, canary_version: null, canary: null })).toEqual({});
    expect(guardLines({ ...HEALTH, stable: { ...HEALTH.stable!, p95_latency_ms: null } }).p95).toBe(
      undefined,
    );
  });

  it('says no canary is running on the share chart', async () => {
    const network = stubFetch(
      respond(['GET', `/v1/tools/${TOOL_ID}/release/history?window=24h`], 200, {
        ...HISTORY,
        canary_version: null,
        canary_percent: 0,
        versions: HISTORY.versions.filter((entry) => entry.role === 'stable'),
      }),
    );
    restore = network.restore;
    render(<ReleaseCharts toolId={TOOL_ID} health={undefined} />);
    const share = await figure('Share served to the canary');
    expect(within(share).getByText('No canary is running.')).toBeTruthy();
    const success = await figure('Success rate');
    expect(success.querySelectorAll('path.recharts-line-curve')).toHaveLength(1);
    expect(success.querySelector('.chart-target')).toBeNull();
  });
});
