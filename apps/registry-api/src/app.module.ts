import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ActorsService } from './actors/actors.service';
import { ContractResponseInterceptor } from './contract/contract-response.interceptor';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuditController } from './audit/audit.controller';
import { AuditRepository } from './audit/audit.repository';
import { AuditService } from './audit/audit.service';
import { ApprovalsController } from './approvals/approvals.controller';
import { ApprovalsRepository } from './approvals/approvals.repository';
import { ApprovalsService } from './approvals/approvals.service';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthCache } from './auth/auth-cache';
import { CredentialsService } from './auth/credentials.service';
import { CallEventBus } from './calls/call-event-bus';
import { CallEventsService } from './calls/call-events.service';
import { CallsController } from './calls/calls.controller';
import { CallsService } from './calls/calls.service';
import { GATEWAY_OPTIONS, type GatewayOptions } from './calls/gateway-options';
import { GatewayHost } from './calls/gateway-host';
import { CanaryGuardController } from './canary-guard/canary-guard.controller';
import {
  CANARY_GUARD_OPTIONS,
  loadCanaryGuardOptions,
  type CanaryGuardOptions,
} from './canary-guard/canary-guard.options';
import { CanaryGuardRepository } from './canary-guard/canary-guard.repository';
import { CanaryGuardService } from './canary-guard/canary-guard.service';
import { ReleaseHealthService } from './canary-guard/release-health.service';
import type { AppConfig } from './config/app-config';
import { ConsoleSessionController } from './console-auth/console-session.controller';
import { ConsoleSessionsService } from './console-auth/console-sessions.service';
import { ConsoleUsersController } from './console-auth/console-users.controller';
import { ConsoleUsersRepository } from './console-auth/console-users.repository';
import { ConsoleUsersService } from './console-auth/console-users.service';
import { LoginRateLimiter } from './console-auth/login-rate-limiter';
import { CallTimelineController } from './call-timeline/call-timeline.controller';
import { CallTimelineRepository } from './call-timeline/call-timeline.repository';
import { CallTimelineService } from './call-timeline/call-timeline.service';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsRepository } from './metrics/metrics.repository';
import { MetricsService } from './metrics/metrics.service';
import { UsageController } from './usage/usage.controller';
import { UsageRepository } from './usage/usage.repository';
import { UsageService } from './usage/usage.service';
import type { Database } from './database/database';
import { APP_CONFIG, DATABASE } from './database/database.tokens';
import { ExportCache } from './exports/export-cache';
import { ExportsController } from './exports/exports.controller';
import { ExportSnapshotsRepository } from './exports/export-snapshots.repository';
import { ExportsService } from './exports/exports.service';
import { HealthController } from './health/health.controller';
import { ImportsController } from './imports/imports.controller';
import { ImportsRepository } from './imports/imports.repository';
import { McpServersService } from './imports/mcp-servers.service';
import { OpenApiImportService } from './imports/openapi-import.service';
import { McpCallsService } from './mcp/mcp-calls.service';
import { McpCatalogService } from './mcp/mcp-catalog.service';
import { McpController } from './mcp/mcp.controller';
import { McpCredentialsService } from './mcp/mcp-credentials.service';
import { McpInFlightRegistry } from './mcp/mcp-in-flight.registry';
import { McpServerFactory } from './mcp/mcp-server.factory';
import { loadMcpOptions, MCP_OPTIONS } from './mcp/mcp-options';
import { McpSessionRegistry } from './mcp/mcp-session.registry';
import { CatalogEventsService } from './catalog-events/catalog-events.service';
import { CatalogSignalRepository } from './catalog-events/catalog-signal.repository';
import { AccessTokenVerifier } from './oauth/access-token-verifier';
import { OAuthController } from './oauth/oauth.controller';
import { OAuthResourceService } from './oauth/oauth-resource.service';
import { BudgetsController } from './budgets/budgets.controller';
import { BudgetsRepository } from './budgets/budgets.repository';
import { BudgetsService } from './budgets/budgets.service';
import { PoliciesController } from './policies/policies.controller';
import { PoliciesRepository } from './policies/policies.repository';
import { PoliciesService } from './policies/policies.service';
import { ProblemDetailsFilter } from './problem/problem-details.filter';
import { ReleasesController } from './releases/releases.controller';
import { ReleasesRepository } from './releases/releases.repository';
import { ReleasesService } from './releases/releases.service';
import { SecretVault } from './secrets/secret-vault';
import { SecretsController } from './secrets/secrets.controller';
import { SecretsRepository } from './secrets/secrets.repository';
import { SecretsService } from './secrets/secrets.service';
import { TeamsController } from './teams/teams.controller';
import { TeamsRepository } from './teams/teams.repository';
import { TeamsService } from './teams/teams.service';
import { ToolVersionsController } from './tools/tool-versions.controller';
import { ToolVersionsService } from './tools/tool-versions.service';
import { ToolsController } from './tools/tools.controller';
import { ToolsRepository } from './tools/tools.repository';
import { ToolsService } from './tools/tools.service';
import { PriceBook } from './prices/price-book';
import { PricesController } from './prices/prices.controller';
import { PricesRepository } from './prices/prices.repository';
import { PricesService } from './prices/prices.service';
import { RunAdvancer } from './runs/run-advancer';
import { RunQueue } from './runs/run-queue';
import { RunsController } from './runs/runs.controller';
import { RunsRepository } from './runs/runs.repository';
import { RunsService } from './runs/runs.service';

@Module({})
export class AppModule {
  /** The whole API around an open database; tests and `main.ts` build it the same way. */
  static forRoot(options: {
    config: AppConfig;
    database: Database;
    gateway: GatewayOptions;
    /** Overrides of the canary guard's `CANARY_GUARD_*` environment settings. */
    canaryGuard?: Partial<CanaryGuardOptions>;
  }): DynamicModule {
    return {
      module: AppModule,
      controllers: [
        HealthController,
        TeamsController,
        ApiKeysController,
        ToolsController,
        ToolVersionsController,
        ReleasesController,
        CanaryGuardController,
        ExportsController,
        AuditController,
        CallsController,
        RunsController,
        ApprovalsController,
        PoliciesController,
        McpController,
        OAuthController,
        ImportsController,
        ConsoleSessionController,
        ConsoleUsersController,
        MetricsController,
        UsageController,
        CallTimelineController,
        SecretsController,
        PricesController,
        BudgetsController,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: DATABASE, useValue: options.database },
        { provide: GATEWAY_OPTIONS, useValue: options.gateway },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        ActorsService,
        { provide: APP_INTERCEPTOR, useClass: ContractResponseInterceptor },
        AuthCache,
        CredentialsService,
        AuditRepository,
        AuditService,
        TeamsRepository,
        TeamsService,
        ApiKeysRepository,
        ApiKeysService,
        ToolsRepository,
        ToolsService,
        ToolVersionsService,
        ReleasesRepository,
        ReleasesService,
        {
          provide: CANARY_GUARD_OPTIONS,
          useValue: loadCanaryGuardOptions(process.env, options.canaryGuard),
        },
        CanaryGuardRepository,
        CanaryGuardService,
        ReleaseHealthService,
        ExportCache,
        ExportSnapshotsRepository,
        ExportsService,
        ApprovalsRepository,
        PoliciesRepository,
        CallEventBus,
        GatewayHost,
        CallsService,
        CallEventsService,
        RunsRepository,
        RunAdvancer,
        RunQueue,
        RunsService,
        ApprovalsService,
        PoliciesService,
        McpCatalogService,
        McpCallsService,
        McpServerFactory,
        McpInFlightRegistry,
        McpCredentialsService,
        OAuthResourceService,
        AccessTokenVerifier,
        ImportsRepository,
        OpenApiImportService,
        McpServersService,
        { provide: MCP_OPTIONS, useValue: loadMcpOptions(process.env) },
        McpSessionRegistry,
        CatalogSignalRepository,
        CatalogEventsService,
        ConsoleUsersRepository,
        ConsoleUsersService,
        ConsoleSessionsService,
        LoginRateLimiter,
        MetricsRepository,
        MetricsService,
        UsageRepository,
        UsageService,
        CallTimelineRepository,
        CallTimelineService,
        SecretVault,
        SecretsRepository,
        SecretsService,
        PricesRepository,
        PricesService,
        PriceBook,
        BudgetsRepository,
        BudgetsService,
      ],
    };
  }
}
