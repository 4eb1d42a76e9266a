// @vitest-environment happy-dom
import type { ToolListItem } from '@toolgate/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { respond, stubFetch } from '../../lib/testing/stub-fetch';
import ReleasesPage from './page';

function tool(index: number): ToolListItem {
  const suffix = String(index).padStart(12, '0');
  return {
    id: `6f1c1e2a-7d1e-4a55-9d8c-${suffix}`,
    team_id: '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90',
    name: `tool.${suffix}`,
    description: '',
    tags: [],
    visibility: 'private',
    release: {
      stable_version: '1.0.0',
      canary_version: null,
      canary_percent: 0,
    },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    badges: { destructive: false, imported_from: null, deprecated: [] },
  };
}

let restore: () => void = () => undefined;
afterEach(() => {
  cleanup();
  restore();
});

describe('the Releases page', () => {
  it('pages through every tool, forward and back, instead of showing the first ones only', async () => {
    const network = stubFetch(
      respond(['GET', '/v1/tools?limit=100'], 200, {
        items: Array.from({ length: 100 }, (_, index) => tool(index)),
        next_cursor: 'c2',
      }),
      respond(['GET', '/v1/tools?limit=100&cursor=c2'], 200, {
        items: [tool(100)],
        next_cursor: null,
      }),
    );
    restore = network.restore;
    render(<ReleasesPage />);
    expect(await screen.findByText('tool.000000000000')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(101);

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('tool.000000000100')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('tool.000000000000')).toBeTruthy();
    expect(network.sent.map((request) => request.url)).toEqual([
      '/v1/tools?limit=100',
      '/v1/tools?limit=100&cursor=c2',
      '/v1/tools?limit=100',
    ]);
  });

  it('marks destructive, imported, canary and deprecated tools with badges', async () => {
    const marked: ToolListItem = {
      ...tool(7),
      release: { stable_version: '2.0.0', canary_version: '2.1.0', canary_percent: 20 },
      badges: {
        destructive: true,
        imported_from: 'openapi',
        deprecated: [{ version: '1.0.0', sunset_at: '2099-01-01T00:00:00.000Z' }],
      },
    };
    restore = stubFetch(
      respond(['GET', '/v1/tools?limit=100'], 200, { items: [marked], next_cursor: null }),
    ).restore;
    render(<ReleasesPage />);
    const row = (await screen.findByText('tool.000000000007')).closest('tr');
    const text = row?.textContent ?? '';
    expect(text).toContain('destructive');
    expect(text).toContain('imported · OpenAPI');
    expect(text).toContain('canary 2.1.0 · 20%');
    expect(text).toMatch(/1\.0\.0 deprecated · sunset in \d+ years/);
    const deprecated = screen.getByText(/1\.0\.0 deprecated/);
    expect(deprecated.getAttribute('title')).toMatch(/^Sunset 209[89]-\d\d-\d\d \d\d:\d\d:\d\d/);
  });
});
