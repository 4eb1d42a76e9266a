// @vitest-environment happy-dom
import type { ToolListItem } from '@toolgate/contract';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../components/session';
import { respond, stubFetch } from '../../lib/testing/stub-fetch';
import { CALLS_METRICS } from '../calls/__fixtures__/calls';
import CatalogPage from './page';

function tool(id: string, name: string): ToolListItem {
  return {
    id,
    team_id: '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90',
    name,
    description: '',
    tags: [],
    visibility: 'private',
    release: { stable_version: '1.0.0', canary_version: null, canary_percent: 0 },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    badges: { destructive: false, imported_from: null, deprecated: [] },
  };
}

// The calls fixture has get_forecast busy; idle has no calls.
const BUSY = tool(CALLS_METRICS.tools[0]!.tool_id, 'get_forecast');
const IDLE = tool('6f1c1e2a-7d1e-4a55-9d8c-000000000099', 'idle');

let restore: () => void = () => undefined;
afterEach(() => {
  cleanup();
  restore();
});

describe('the Catalog page', () => {
  it("shows each tool's calls and errors of the last 24 h from one request for all rows", async () => {
    const network = stubFetch(
      respond(['GET', '/v1/tools?limit=50'], 200, { items: [BUSY, IDLE], next_cursor: null }),
      respond(['GET', '/v1/metrics/calls?window=24h'], 200, CALLS_METRICS),
    );
    restore = network.restore;
    const user = {
      id: '5d3c1e2a-7d1e-4a55-9d8c-000000000001',
      email: 'ada@example.com',
      name: 'Ada',
      role: 'viewer' as const,
    };
    render(
      <SessionProvider value={{ user, signOut: () => undefined }}>
        <CatalogPage />
      </SessionProvider>,
    );

    const sparkline = await screen.findByRole('img', {
      name: 'get_forecast, last 24 h: calls 11, errors 2',
    });
    expect(sparkline.querySelectorAll('path.recharts-line-curve')).toHaveLength(2);
    const busyRow = screen.getByRole('link', { name: 'get_forecast' }).closest('tr')!;
    expect(within(busyRow).getByText('11 · 2 failed')).toBeTruthy();
    const idleRow = screen.getByRole('link', { name: 'idle' }).closest('tr')!;
    expect(within(idleRow).getByText('no calls')).toBeTruthy();
    expect(
      network.sent.filter((request) => request.url.startsWith('/v1/metrics/calls')),
    ).toHaveLength(1);
  });
});
