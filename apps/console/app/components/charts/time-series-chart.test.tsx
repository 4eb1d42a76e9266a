// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TimeSeriesChart, type TimeSeries } from './time-series-chart';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 6, 0, 0, 0);
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

function hourly(values: ReadonlyArray<number | null>): TimeSeries['points'] {
  return values.map((value, index) => ({ at: START + index * HOUR, value }));
}

afterEach(cleanup);

describe('TimeSeriesChart', () => {
  it('draws one line per series, a dot per value, the target line with its label, and marks breaches', () => {
    const { container } = render(
      <TimeSeriesChart
        title="Success rate"
        unit="%"
        format={percent}
        yDomain={[0.9, 1]}
        targets={[{ value: 0.995, label: 'SLO 99.5%', kind: 'min' }]}
        series={[
          { key: 'search', name: 'search', points: hourly([1, 0.999, 0.98, null, 1]) },
          { key: 'refund', name: 'refund', points: hourly([0.99, 1, 1, 1, 1]) },
        ]}
      />,
    );
    expect(container.querySelectorAll('path.recharts-line-curve')).toHaveLength(2);
    // 4 + 5 values; the 0.98 and 0.99 fall short of 99.5%.
    expect(container.querySelectorAll('circle.chart-point')).toHaveLength(7);
    expect(container.querySelectorAll('circle.chart-breach')).toHaveLength(2);
    expect(container.querySelectorAll('.chart-target line, line.chart-target')).toHaveLength(1);
    expect(container.textContent).toContain('SLO 99.5%');
    const legend = [...container.querySelectorAll('.recharts-legend-item-text')].map(
      (item) => item.textContent,
    );
    expect(legend).toEqual(['search', 'refund']);
    expect(container.textContent).toContain('%');
    const figure = container.querySelector('[role="img"]');
    expect(figure?.getAttribute('aria-label')).toBe(
      'Success rate. search: latest 100.0%, 1 breach; refund: latest 100.0%, 1 breach',
    );
  });

  it('marks values above a max target', () => {
    const { container } = render(
      <TimeSeriesChart
        title="p95 latency"
        unit="ms"
        format={(value) => `${value} ms`}
        targets={[{ value: 2000, label: 'p95 ≤ 2 s', kind: 'max' }]}
        series={[{ key: 'p95', name: 'p95', points: hourly([1200, 2500, 1900, 3100]) }]}
      />,
    );
    expect(container.querySelectorAll('circle.chart-breach')).toHaveLength(2);
    expect(container.querySelectorAll('circle.chart-point')).toHaveLength(2);
  });

  it('leaves a series the targets do not judge unmarked', () => {
    const { container } = render(
      <TimeSeriesChart
        title="p95 latency"
        unit="ms"
        format={(value) => `${value} ms`}
        targets={[{ value: 2000, label: 'guard', kind: 'max' }]}
        series={[
          { key: 'stable', name: 'stable', judged: false, points: hourly([2500, 2600]) },
          { key: 'canary', name: 'canary', points: hourly([2500, 1000]) },
        ]}
      />,
    );
    expect(container.querySelectorAll('circle.chart-breach')).toHaveLength(1);
    expect(container.querySelectorAll('circle.chart-point')).toHaveLength(3);
  });

  it('shows a series with one value as a point with its value written beside it', () => {
    const { container } = render(
      <TimeSeriesChart
        title="Latency"
        unit="ms"
        format={(value) => `${value} ms`}
        range={{ from: START, to: START + 24 * HOUR }}
        series={[{ key: 'p50', name: 'p50', points: hourly([null, null, 420, null]) }]}
      />,
    );
    expect(container.querySelectorAll('circle.chart-point')).toHaveLength(1);
    const labels = [...container.querySelectorAll('text.chart-point-value')];
    expect(labels.map((label) => label.textContent)).toEqual(['420 ms']);
  });

  it('says there is no data instead of drawing empty axes', () => {
    const { container, getByText } = render(
      <TimeSeriesChart
        title="Latency"
        unit="ms"
        format={String}
        emptyText="No calls in the last 1h."
        series={[{ key: 'p50', name: 'p50', points: hourly([null, null]) }]}
      />,
    );
    expect(getByText('No calls in the last 1h.')).toBeTruthy();
    expect(container.querySelector('svg')).toBeNull();
  });

  it('draws at a default width where nothing measures the container', () => {
    const { container } = render(
      <TimeSeriesChart
        title="Calls"
        unit="calls"
        format={String}
        series={[{ key: 'calls', name: 'calls', points: hourly([1, 2, 3]) }]}
      />,
    );
    const svg = container.querySelector('svg.recharts-surface');
    expect(Number(svg?.getAttribute('width'))).toBeGreaterThan(0);
  });
});
