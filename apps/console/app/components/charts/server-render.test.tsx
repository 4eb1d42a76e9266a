// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Sparkline } from './sparkline';
import { StackedBarChart } from './stacked-bar-chart';
import { TimeSeriesChart } from './time-series-chart';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 6, 0, 0, 0);

// Next renders the pages' client components on the server first: the charts must not need a DOM.
// The title and the spoken summary are there at once; the lines follow when the page hydrates.
describe('the charts on the server', () => {
  it('render their frame, title and summary without a DOM', () => {
    const html = renderToString(
      <>
        <TimeSeriesChart
          title="Success rate"
          unit="%"
          format={String}
          series={[
            {
              key: 'a',
              name: 'a',
              points: [
                { at: START, value: 1 },
                { at: START + HOUR, value: 0.9 },
              ],
            },
          ]}
        />
        <StackedBarChart
          title="Calls"
          unit="calls"
          series={[{ key: 'ok', name: 'ok' }]}
          buckets={[{ start: START, end: START + HOUR, values: { ok: 3 } }]}
        />
        <Sparkline label="search" series={[{ key: 'calls', name: 'calls', values: [1, 2] }]} />
      </>,
    );
    expect(html).toContain('<figcaption>Success rate</figcaption>');
    expect(html).toContain('aria-label="Success rate. a: latest 0.9"');
    expect(html).toContain('<figcaption>Calls</figcaption>');
    expect(html).toContain('aria-label="search: calls 3"');
    // recharts draws its SVG once mounted; until then the box keeps the chart's height.
    expect(html).toContain('min-height:220px');
  });
});
