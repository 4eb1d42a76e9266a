import type { ReleaseWithActors, Tool, ToolVersion, VersionUsage } from '@toolgate/contract';

/** A tool whose stable 1.0.0 runs beside a 10% canary 1.1.0, with a newer draft 1.4.0. */
export const TOOL_ID = '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11';
const TEAM_ID = '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90';
export const KEY_ACTOR = 'key:d9f9ecc4-1b2c-4d5e-8f90-123456789abc';

export const TOOL: Tool = {
  id: TOOL_ID,
  team_id: TEAM_ID,
  name: 'refund_order',
  description: 'Refunds an order.',
  tags: ['billing'],
  visibility: 'private',
  release: { stable_version: '1.0.0', canary_version: '1.1.0', canary_percent: 10 },
  created_at: '2026-12-01T10:00:00.000Z',
  updated_at: '2026-12-01T10:00:00.000Z',
};

function version(value: string, status: ToolVersion['status']): ToolVersion {
  return {
    tool_id: TOOL_ID,
    version: value,
    status,
    schema_version: '1.0',
    created_by: KEY_ACTOR,
    created_at: '2026-12-01T10:00:00.000Z',
    deprecated_at: null,
    sunset_at: null,
    successor_version: null,
    brownouts: [],
  };
}

/** Newest first, as the API lists them. */
export const VERSIONS: ToolVersion[] = [
  version('1.4.0', 'draft'),
  version('1.1.0', 'published'),
  version('1.0.0', 'published'),
];

export function irOf(value: string): Record<string, unknown> {
  return {
    schema_version: '1.0',
    id: TOOL_ID,
    name: 'refund_order',
    version: value,
    description: `Refunds an order (${value}).`,
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    behavior: { readonly: false, destructive: true, idempotent: false },
  };
}

export const RELEASE: ReleaseWithActors = {
  tool_id: TOOL_ID,
  stable_version: '1.0.0',
  canary_version: '1.1.0',
  canary_percent: 10,
  previous_stable_version: null,
  updated_by: KEY_ACTOR,
  updated_at: '2026-12-01T10:00:00.000Z',
  actors: {
    [KEY_ACTOR]: {
      kind: 'key',
      id: 'd9f9ecc4-1b2c-4d5e-8f90-123456789abc',
      name: 'release-bot',
      team_name: 'payments',
    },
  },
};

export function usageOf(value: string): VersionUsage {
  return {
    tool: 'refund_order',
    version: value,
    window: '7d',
    callers: [
      {
        team_id: TEAM_ID,
        team_name: 'payments',
        key_id: 'd9f9ecc4-1b2c-4d5e-8f90-123456789abc',
        key_name: 'checkout-service',
        actor: KEY_ACTOR,
        calls: 12,
        last_call_at: '2026-12-06T10:00:00.000Z',
      },
    ],
  };
}
