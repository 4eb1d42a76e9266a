import type { RouteDefinition } from './route/route';
import { apiKeysRoutes } from './api-keys/api-keys.routes';
import { approvalsRoutes } from './approvals/approvals.routes';
import { auditRoutes } from './audit/audit.routes';
import { budgetsRoutes } from './budgets/budgets.routes';
import { callTimelineRoutes } from './call-timeline/call-timeline.routes';
import { callsRoutes } from './calls/calls.routes';
import { canaryGuardRoutes } from './canary-guard/canary-guard.routes';
import { consoleRoutes } from './console/console.routes';
import { costRoutes } from './cost/cost.routes';
import { exportsRoutes } from './exports/exports.routes';
import { healthRoutes } from './health/health.routes';
import { importsRoutes } from './imports/imports.routes';
import { mcpRoutes } from './mcp/mcp.routes';
import { oauthRoutes } from './oauth/oauth.routes';
import { metricsRoutes } from './metrics/metrics.routes';
import { pricesRoutes } from './prices/prices.routes';
import { policiesRoutes } from './policies/policies.routes';
import { releasesRoutes } from './releases/releases.routes';
import { runsRoutes } from './runs/runs.routes';
import { secretsRoutes } from './secrets/secrets.routes';
import { teamsRoutes } from './teams/teams.routes';
import { toolVersionsRoutes } from './tool-versions/tool-versions.routes';
import { toolsRoutes } from './tools/tools.routes';
import { usageRoutes } from './usage/usage.routes';

/** Every route of the HTTP API, by operationId. */
export const routes = {
  ...healthRoutes,
  ...teamsRoutes,
  ...apiKeysRoutes,
  ...toolsRoutes,
  ...toolVersionsRoutes,
  ...releasesRoutes,
  ...canaryGuardRoutes,
  ...usageRoutes,
  ...exportsRoutes,
  ...callsRoutes,
  ...callTimelineRoutes,
  ...runsRoutes,
  ...approvalsRoutes,
  ...policiesRoutes,
  ...importsRoutes,
  ...secretsRoutes,
  ...budgetsRoutes,
  ...auditRoutes,
  ...metricsRoutes,
  ...costRoutes,
  ...pricesRoutes,
  ...consoleRoutes,
  ...mcpRoutes,
  ...oauthRoutes,
};

export type Routes = typeof routes;
export type OperationId = keyof Routes;

/** The routes as a list, in the order the OpenAPI document shows them. */
export const ROUTE_LIST: readonly RouteDefinition[] = Object.values(routes);
