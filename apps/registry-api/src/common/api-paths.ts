/** Paths (without host) the API serves besides its routes. */
export const API_PATHS = {
  index: '/v1',
  openapi: '/v1/openapi.json',
  docs: '/v1/docs',
  health: '/healthz',
  ready: '/readyz',
  mcp: '/mcp',
} as const;
