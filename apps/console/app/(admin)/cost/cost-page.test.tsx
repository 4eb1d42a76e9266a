// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { respond, stubFetch } from '../../lib/testing/stub-fetch';
import { COST_BY_TOOL, COST_BY_VERSION, COST_NONE } from './__fixtures__/cost-report';
import CostPage from './page';

let restore: () => void = () => undefined;
afterEach(() => {
  cleanup();
  restore();
});

function figure(title: string): HTMLElement {
  return screen.getByText(title, { selector: 'figcaption' }).closest('figure')!;
}

describe('the Cost page', () => {
  it('shows totals, spend over time per tool and tool vs token cost', async () => {
    const network = stubFetch(
      respond(['GET', '/v1/metrics/cost?group_by=tool&window=24h'], 200, COST_BY_TOOL),
    );
    restore = network.restore;
    render(<CostPage />);

    const totals = await screen.findByRole('region', { name: 'Totals' });
    expect(within(totals).getByText('$3.30')).toBeTruthy();
    expect(within(totals).getByText('$2.16')).toBeTruthy();
    expect(within(totals).getByText('$1.14')).toBeTruthy();
    expect(within(totals).getByText(/10 from the result cache · \$0\.011 per call/)).toBeTruthy();

    const spend = figure('Spend per tool');
    expect(spend.querySelectorAll('path.recharts-line-curve')).toHaveLength(1);
    expect(spend.querySelectorAll('circle.chart-point')).toHaveLength(3);
    const split = figure('Tool vs token cost');
    expect(split.querySelectorAll('.recharts-bar-rectangle path')).toHaveLength(6);
    expect(split.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe(
      'Tool vs token cost. tool cost: $2.16; token cost: $1.14',
    );
  });

  it('groups by version, where a canary that costs twice as much per call stands out', async () => {
    const network = stubFetch(
      respond(['GET', '/v1/metrics/cost?group_by=tool&window=24h'], 200, COST_BY_TOOL),
      respond(['GET', '/v1/metrics/cost?group_by=version&window=7d'], 200, COST_BY_VERSION),
    );
    restore = network.restore;
    render(<CostPage />);
    await screen.findByRole('region', { name: 'Totals' });
    fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'version' } });
    fireEvent.change(screen.getByLabelText('Window'), { target: { value: '7d' } });

    await screen.findByText('Spend per version', { selector: 'figcaption' });
    const spend = figure('Spend per version');
    expect(spend.querySelectorAll('path.recharts-line-curve')).toHaveLength(2);
    const legend = [...spend.querySelectorAll('.recharts-legend-item-text')].map(
      (item) => item.textContent,
    );
    expect(legend).toEqual(['search@1.0.0', 'search@1.1.0']);

    const table = screen.getByRole('region', { name: 'Spend per version' });
    const perCall = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => {
        const cells = within(row).getAllByRole('cell');
        return [cells[0]?.textContent, cells.at(-1)?.textContent];
      });
    expect(perCall).toEqual([
      ['search@1.0.0', '$0.01'],
      ['search@1.1.0', '$0.02'],
    ]);
    expect(network.sent.map((request) => request.url)).toContain(
      '/v1/metrics/cost?group_by=version&window=7d',
    );
  });

  it('says there was no spend instead of drawing empty charts', async () => {
    restore = stubFetch(
      respond(['GET', '/v1/metrics/cost?group_by=tool&window=24h'], 200, COST_NONE),
    ).restore;
    render(<CostPage />);
    expect(await screen.findByText('No spend in the last 24h.')).toBeTruthy();
    expect(document.querySelector('.recharts-surface')).toBeNull();
  });
});
