import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ImportOpenApiInput, OpenApiImport } from '@toolgate/contract';
import type { Principal } from '../auth/principal';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../calls/gateway-options';
import { ExportCache } from '../exports/export-cache';
import { resolveTargetTeamId } from '../teams/resolve-target-team';
import { TeamsRepository } from '../teams/teams.repository';
import { assertImportEgress } from './import-egress';
import { SecretsService } from '../secrets/secrets.service';
import { ImportsRepository } from './imports.repository';
import { loadOpenApiDocument } from './openapi-document';
import { openApiToTools, type OperationRef } from './openapi-to-tools';
import { planImport } from './tool-import-planner';
import { IMPORTED_TOOL_TIMEOUT_MS } from './tool-version-plan';

@Injectable()
export class OpenApiImportService {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(ImportsRepository) private readonly imports: ImportsRepository,
    @Inject(TeamsRepository) private readonly teams: TeamsRepository,
    @Inject(ExportCache) private readonly cache: ExportCache,
    @Inject(GATEWAY_OPTIONS) private readonly gateway: GatewayOptions,
    @Inject(SecretsService) private readonly secrets: SecretsService,
  ) {}

  /** One tool per operation; every tool, version, release and audit event commits in one transaction. */
  async import(principal: Principal, body: ImportOpenApiInput): Promise<OpenApiImport> {
    const teamId = await resolveTargetTeamId(this.teams, { principal, teamId: body.team_id });
    const document = await loadOpenApiDocument(body.document);
    const converted = openApiToTools(document, {
      baseUrl: body.base_url,
      tags: body.tags,
      namePrefix: body.name_prefix,
      secretPrefix: body.secret_prefix,
    });
    if (converted.baseUrl !== null)
      await assertImportEgress(
        this.gateway.egress,
        converted.baseUrl,
        body.base_url === undefined ? '/body/document/servers/0/url' : '/body/base_url',
      );
    const existing = await this.imports.findTools(
      teamId,
      converted.tools.map((tool) => tool.name),
    );
    const importId = randomUUID();
    const info = document['info'] as Record<string, unknown> | undefined;
    const origin = {
      id: importId,
      kind: 'openapi',
      title: typeof info?.['title'] === 'string' ? info['title'] : null,
      document_version: typeof info?.['version'] === 'string' ? info['version'] : null,
    };
    const plan = planImport<OperationRef>(
      converted.tools.map((candidate) => ({
        candidate,
        source: candidate.operation,
        timeoutMs: IMPORTED_TOOL_TIMEOUT_MS,
      })),
      {
        principal,
        teamId,
        publish: body.publish,
        byName: new Map(existing.map((tool) => [tool.name, tool])),
        origin,
        teamSecrets: await this.secrets.teamSecretNames(teamId),
      },
    );
    const result: OpenApiImport = {
      dry_run: body.dry_run,
      team_id: teamId,
      base_url: converted.baseUrl,
      tools: plan.planned.map((planned) => ({ ...planned.dto, operation: planned.source })),
      skipped: [
        ...converted.skipped,
        ...plan.failed.map((failure) => ({ ...failure.source, reason: failure.reason })),
      ],
    };
    if (body.dry_run || plan.versions.length === 0) return result;
    await this.imports.apply({
      versions: plan.versions,
      deprecations: [],
      audit: [
        ...plan.audit,
        {
          actor: principal.actor,
          teamId,
          action: 'import.openapi',
          entityType: 'import',
          entityId: importId,
          data: {
            ...origin,
            created: result.tools
              .filter((tool) => tool.action === 'created')
              .map((tool) => tool.name),
            versioned: result.tools
              .filter((tool) => tool.action === 'new_version')
              .map((tool) => `${tool.name}@${tool.version}`),
            published_drafts: result.tools
              .filter((tool) => tool.action === 'published_draft')
              .map((tool) => `${tool.name}@${tool.version}`),
            unchanged: result.tools.filter((tool) => tool.action === 'unchanged').length,
            skipped: result.skipped.length,
            published: body.publish,
          },
        },
      ],
    });
    this.cache.invalidate();
    return result;
  }
}
