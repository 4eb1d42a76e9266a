// @vitest-environment happy-dom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StackedBarChart, type BarBucket, type BarSelection } from './stacked-bar-chart';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 6, 0, 0, 0);
const SERIES = [
  { key: 'succeeded', name: 'succeeded' },
  { key: 'failed', name: 'failed' },
];

function buckets(values: ReadonlyArray<Record<string, number>>): BarBucket[] {
  return values.map((entry, index) => ({
    start: START + index * HOUR,
    end: START + (index + 1) * HOUR,
    values: entry,
  }));
}

afterEach(cleanup);

describe('StackedBarChart', () => {
  it('draws a segment per non-zero value, stacked per bucket, with a legend', () => {
    const { container } = render(
      <StackedBarChart
        title="Calls"
        unit="calls"
        series={SERIES}
        buckets={buckets([
          { succeeded: 5, failed: 1 },
          { succeeded: 3, failed: 0 },
          { succeeded: 0, failed: 0 },
          { succeeded: 2, failed: 2 },
        ])}
      />,
    );
    expect(container.querySelectorAll('.recharts-bar')).toHaveLength(2);
    expect(container.querySelectorAll('.recharts-bar-rectangle path')).toHaveLength(5);
    const legend = [...container.querySelectorAll('.recharts-legend-item-text')].map(
      (item) => item.textContent,
    );
    expect(legend).toEqual(['succeeded', 'failed']);
    expect(container.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe(
      'Calls. succeeded: 10; failed: 3',
    );
  });

  it('hands the clicked bucket and series to onSelect', () => {
    const picked: BarSelection[] = [];
    const data = buckets([
      { succeeded: 5, failed: 1 },
      { succeeded: 3, failed: 4 },
    ]);
    const { container } = render(
      <StackedBarChart
        title="Calls"
        unit="calls"
        series={SERIES}
        buckets={data}
        onSelect={(selection) => picked.push(selection)}
      />,
    );
    const failedBars = container.querySelectorAll('.recharts-bar')[1]?.querySelectorAll('path');
    expect(failedBars).toHaveLength(2);
    fireEvent.click(failedBars![1]!);
    expect(picked).toEqual([{ bucket: data[1], series: SERIES[1] }]);
  });

  it('says there is nothing instead of drawing empty axes', () => {
    const { container, getByText } = render(
      <StackedBarChart
        title="Calls"
        unit="calls"
        series={SERIES}
        emptyText="No calls in the last 24h."
        buckets={buckets([{ succeeded: 0, failed: 0 }])}
      />,
    );
    expect(getByText('No calls in the last 24h.')).toBeTruthy();
    expect(container.querySelector('svg')).toBeNull();
  });

  it('draws a single bucket as one bar', () => {
    const { container } = render(
      <StackedBarChart
        title="Calls"
        unit="calls"
        series={SERIES}
        buckets={buckets([{ succeeded: 4 }])}
      />,
    );
    expect(container.querySelectorAll('.recharts-bar-rectangle path')).toHaveLength(1);
  });
});
