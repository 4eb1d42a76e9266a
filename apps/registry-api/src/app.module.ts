import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuditController } from './audit/audit.controller';
import { AuditRepository } from './audit/audit.repository';
import { AuditService } from './audit/audit.service';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthCache } from './auth/auth-cache';
import { CredentialsService } from './auth/credentials.service';
import type { AppConfig } from './config/app-config';
import type { Database } from './database/database';
import { APP_CONFIG, DATABASE } from './database/database.tokens';
import { ExportCache } from './exports/export-cache';
import { ExportsController } from './exports/exports.controller';
import { ExportsService } from './exports/exports.service';
import { HealthController } from './health/health.controller';
import { ProblemDetailsFilter } from './problem/problem-details.filter';
import { ReleasesController } from './releases/releases.controller';
import { ReleasesRepository } from './releases/releases.repository';
import { ReleasesService } from './releases/releases.service';
import { TeamsController } from './teams/teams.controller';
import { TeamsRepository } from './teams/teams.repository';
import { TeamsService } from './teams/teams.service';
import { ToolVersionsController } from './tools/tool-versions.controller';
import { ToolVersionsService } from './tools/tool-versions.service';
import { ToolsController } from './tools/tools.controller';
import { ToolsRepository } from './tools/tools.repository';
import { ToolsService } from './tools/tools.service';

@Module({})
export class AppModule {
  /** The whole API around an open database; tests and `main.ts` build it the same way. */
  static forRoot(options: { config: AppConfig; database: Database }): DynamicModule {
    return {
      module: AppModule,
      controllers: [
        HealthController,
        TeamsController,
        ApiKeysController,
        ToolsController,
        ToolVersionsController,
        ReleasesController,
        ExportsController,
        AuditController,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: DATABASE, useValue: options.database },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
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
        ExportCache,
        ExportsService,
      ],
    };
  }
}
