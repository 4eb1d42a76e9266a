// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { respond, stubFetch } from '../lib/testing/stub-fetch';
import { referencedSecrets, VersionSecrets } from './version-secrets';

const TEAM = '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11';
const IR = {
  protocol_meta: {
    toolgate: {
      executor: {
        kind: 'http',
        headers: {
          'X-Api-Key': { secret: 'ORDERS_API_KEY' },
          Authorization: { secret: 'ORDERS_API_KEY', prefix: 'Bearer ' },
          Cookie: { secret: 'SESSION' },
          Accept: 'application/json',
        },
      },
    },
  },
};
let restore: () => void = () => undefined;

afterEach(() => {
  cleanup();
  restore();
});

describe('VersionSecrets', () => {
  it('lists the secrets a version references once each', () => {
    expect(referencedSecrets(IR)).toEqual(['ORDERS_API_KEY', 'SESSION']);
    expect(referencedSecrets({ protocol_meta: {} })).toEqual([]);
    expect(referencedSecrets(null)).toEqual([]);
  });

  it("marks each as stored or missing from the team's secrets", async () => {
    const network = stubFetch(
      respond(['GET', `/v1/secrets?team_id=${TEAM}`], 200, {
        items: [
          {
            name: 'ORDERS_API_KEY',
            team_id: TEAM,
            created_by: 'user:ada@example.com',
            created_at: '2026-01-01T00:00:00Z',
            updated_at: '2026-01-01T00:00:00Z',
            last_used_at: null,
            referenced_by: [],
          },
        ],
      }),
    );
    restore = network.restore;
    render(<VersionSecrets ir={IR} teamId={TEAM} />);
    expect(await screen.findByText('stored')).toBeTruthy();
    expect(screen.getByText('missing')).toBeTruthy();
    expect(screen.getByText(/Calls fail until the missing secrets are stored/)).toBeTruthy();
  });
});
