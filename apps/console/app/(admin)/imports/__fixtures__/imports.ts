import type { ImportedTool, McpServerSync, OpenApiImport, Team } from '@toolgate/contract';

export const TEAM: Team = {
  id: '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90',
  slug: 'payments',
  name: 'payments',
  allow_self_approval: false,
  created_at: '2026-01-01T00:00:00Z',
};

const VALID = { valid: true, downgrades: 0, problems: [] };

export function importedTool(overrides: Partial<ImportedTool> = {}): ImportedTool {
  return {
    name: 'wiki_search',
    tool_id: '6f1c1e2a-7d1e-4a55-9d8c-000000000001',
    action: 'created',
    version: '1.0.0',
    previous_version: null,
    status: 'draft',
    bump: null,
    changes: [],
    warnings: [],
    needs_approval: false,
    exports: {
      'openai-responses': VALID,
      'openai-chat': VALID,
      anthropic: VALID,
      gemini: VALID,
      mcp: VALID,
    },
    secrets: [],
    ...overrides,
  };
}

export const MCP_SYNC: McpServerSync = {
  server: {
    id: '7a1c1e2a-7d1e-4a55-9d8c-000000000009',
    team_id: TEAM.id,
    name: 'wiki',
    url: 'https://wiki.example.com/mcp',
    auth: { header: 'Authorization', secret_ref: 'WIKI_TOKEN', prefix: 'Bearer ' },
    publish: false,
    created_by: 'user:ada@example.com',
    created_at: '2026-01-01T00:00:00Z',
    last_synced_at: '2026-01-01T00:00:00Z',
    tools: [],
  },
  added: [
    importedTool({
      warnings: ['outputSchema: rewritten from JSON Schema draft-07 to 2020-12'],
    }),
    importedTool({
      name: 'wiki_delete',
      tool_id: '6f1c1e2a-7d1e-4a55-9d8c-000000000002',
      needs_approval: true,
    }),
  ],
  changed: [],
  removed: [],
  unchanged: [],
  skipped: [{ upstream_name: 'long_job', reason: 'requires task-augmented execution' }],
  tools_needing_approval: 1,
};

export const OPENAPI_PREVIEW: OpenApiImport = {
  dry_run: true,
  team_id: TEAM.id,
  base_url: 'https://api.weather.example.com/v2',
  tools: [
    {
      ...importedTool({
        name: 'getWeather',
        secrets: [{ name: 'WEATHER_KEY', set: false }],
      }),
      operation: { method: 'GET', path: '/weather', operation_id: 'getWeather' },
    },
    {
      ...importedTool({
        name: 'deleteCity',
        tool_id: '6f1c1e2a-7d1e-4a55-9d8c-000000000003',
        action: 'new_version',
        version: '2.0.0',
        previous_version: '1.4.0',
        bump: 'major',
        needs_approval: true,
      }),
      operation: { method: 'DELETE', path: '/cities/{id}', operation_id: 'deleteCity' },
    },
  ],
  skipped: [
    {
      method: 'POST',
      path: '/upload',
      operation_id: null,
      reason: 'multipart bodies are not supported',
    },
  ],
};
