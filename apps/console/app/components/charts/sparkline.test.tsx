// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Sparkline } from './sparkline';

afterEach(cleanup);

describe('Sparkline', () => {
  it('draws one line per series at a fixed size, and reads out the totals', () => {
    const { container, getByRole } = render(
      <Sparkline
        label="search, last 24 h"
        series={[
          { key: 'calls', name: 'calls', values: [1, 4, 2, 8] },
          { key: 'errors', name: 'errors', values: [0, 1, 0, 2] },
        ]}
      />,
    );
    expect(container.querySelectorAll('path.recharts-line-curve')).toHaveLength(2);
    const svg = container.querySelector('svg.recharts-surface');
    expect(svg?.getAttribute('width')).toBe('120');
    expect(svg?.getAttribute('height')).toBe('28');
    expect(getByRole('img').getAttribute('aria-label')).toBe(
      'search, last 24 h: calls 15, errors 3',
    );
  });

  it('shows a single bucket as a dot', () => {
    const { container } = render(
      <Sparkline label="one" series={[{ key: 'calls', name: 'calls', values: [3] }]} />,
    );
    expect(container.querySelectorAll('.recharts-line-dot')).toHaveLength(1);
  });

  it('shows a dash without data', () => {
    const { container, getByRole } = render(<Sparkline label="idle" series={[]} />);
    expect(container.querySelector('svg')).toBeNull();
    expect(getByRole('img').getAttribute('aria-label')).toBe('idle: no data');
  });
});
