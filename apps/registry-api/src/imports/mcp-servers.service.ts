import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type {
  McpBehaviorDefaults,
  McpServer,
  McpServerList,
  McpServerSync,
  RegisterMcpServerInput,
} from '@toolgate/contract';
import type { HeaderValue } from '@toolgate/engine';
import { compareVersions } from '@toolgate/toolir';
import type { AuditEntry } from '../audit/audit.repository';
import { ownsTeam, type Principal } from '../auth/principal';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../calls/gateway-options';
import { ExportCache } from '../exports/export-cache';
import { ToolException } from '../problem/tool.exception';
import { resolveTargetTeamId } from '../teams/resolve-target-team';
import { TeamsRepository } from '../teams/teams.repository';
import {
  ImportsRepository,
  type ImportedToolRow,
  type McpServerRow,
  type McpServerToolRow,
} from './imports.repository';
import { planImport, type CandidateInput } from './tool-import-planner';
import { IMPORTED_TOOL_TIMEOUT_MS } from './tool-version-plan';
import {
  listUpstreamTools,
  recordedBehaviorDefaults,
  upstreamToolToCandidate,
  type UpstreamTool,
} from './upstream-mcp-tools';
import { SecretsService } from '../secrets/secrets.service';

/** How long a tool that disappeared upstream stays served (deprecated) before its sunset. */
export const REMOVED_TOOL_SUNSET_MS = 30 * 24 * 60 * 60 * 1000;

type ServerWithTools = McpServerRow & { tools: McpServerToolRow[] };

export function serverToDto(server: ServerWithTools): McpServer {
  return {
    id: server.id,
    team_id: server.teamId,
    name: server.name,
    url: server.url,
    auth:
      server.authHeader !== null && server.authSecret !== null
        ? { header: server.authHeader, secret_ref: server.authSecret, prefix: server.authPrefix }
        : null,
    publish: server.publish,
    created_by: server.createdBy,
    created_at: server.createdAt.toISOString(),
    last_synced_at: server.lastSyncedAt?.toISOString() ?? null,
    tools: server.tools
      .map((tool) => ({
        upstream_name: tool.upstreamName,
        tool_id: tool.toolId,
        removed_at: tool.removedAt?.toISOString() ?? null,
      }))
      .sort((left, right) => left.upstream_name.localeCompare(right.upstream_name)),
  };
}

/** The behavior defaults recorded in the newest version of the first mirrored tool that has them. */
function recordedDefaultsOf(tools: Iterable<ImportedToolRow>): McpBehaviorDefaults | undefined {
  for (const tool of tools) {
    const newest = [...tool.versions].sort((left, right) =>
      compareVersions(right.version, left.version),
    )[0];
    const recorded = recordedBehaviorDefaults(newest?.ir);
    if (recorded !== undefined) return recorded;
  }
  return undefined;
}

function headersOf(server: McpServerRow): Record<string, HeaderValue> {
  if (server.authHeader === null || server.authSecret === null) return {};
  return {
    [server.authHeader]: {
      secret: server.authSecret,
      ...(server.authPrefix === null ? {} : { prefix: server.authPrefix }),
    },
  };
}

@Injectable()
export class McpServersService {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(ImportsRepository) private readonly imports: ImportsRepository,
    @Inject(TeamsRepository) private readonly teams: TeamsRepository,
    @Inject(ExportCache) private readonly cache: ExportCache,
    @Inject(GATEWAY_OPTIONS) private readonly gateway: GatewayOptions,
    @Inject(SecretsService) private readonly secrets: SecretsService,
  ) {}

  /** Registers a server and imports its tools; an unreachable server is a 502 and nothing is written. */
  async register(principal: Principal, body: RegisterMcpServerInput): Promise<McpServerSync> {
    const teamId = await resolveTargetTeamId(this.teams, { principal, teamId: body.team_id });
    if ((await this.imports.findServerByName(teamId, body.name)) !== null) {
      throw new ToolException(
        'conflict',
        `An MCP server named "${body.name}" is already registered.`,
        {
          issues: [{ path: '/body/name', message: 'is already taken in this team' }],
        },
      );
    }
    const server: ServerWithTools = {
      id: randomUUID(),
      teamId,
      name: body.name,
      url: body.url,
      authHeader: body.auth?.header ?? null,
      authSecret: body.auth?.secret_ref ?? null,
      authPrefix: body.auth?.prefix ?? null,
      namePrefix: body.name_prefix ?? null,
      publish: body.publish,
      createdBy: principal.actor,
      createdAt: new Date(),
      lastSyncedAt: null,
      tools: [],
    };
    return this.sync(principal, server, { created: true, defaults: body.defaults });
  }

  async list(principal: Principal): Promise<McpServerList> {
    const servers = await this.imports.listServers(principal.teamId);
    return { items: servers.map(serverToDto) };
  }

  async get(principal: Principal, id: string): Promise<McpServer> {
    return serverToDto(await this.requireOwned(principal, id));
  }

  /** Re-lists the upstream tools: new ones are imported, changed ones versioned, removed ones deprecated. */
  async resync(principal: Principal, id: string): Promise<McpServerSync> {
    return this.sync(principal, await this.requireOwned(principal, id), { created: false });
  }

  private async requireOwned(principal: Principal, id: string): Promise<ServerWithTools> {
    const server = await this.imports.findServer(id);
    // Another team's server is a 404, as if it did not exist.
    if (server === null || !ownsTeam(principal, server.teamId)) {
      throw new ToolException('not_found', `MCP server ${id} was not found.`);
    }
    return server;
  }

  private async sync(
    principal: Principal,
    server: ServerWithTools,
    how: { created: boolean; defaults?: McpBehaviorDefaults | undefined },
  ): Promise<McpServerSync> {
    const { created } = how;
    const headers = headersOf(server);
    const listed = await listUpstreamTools(
      { url: server.url, headers },
      // The server's team's own secrets, as its tools' calls will resolve them.
      { secrets: this.secrets.resolverFor(server.teamId), egress: this.gateway.egress },
    );
    const mirrored = new Map(
      (await this.imports.findToolsById(server.tools.map((tool) => tool.toolId))).map((tool) => [
        tool.id,
        tool,
      ]),
    );
    const mappingByUpstream = new Map(server.tools.map((tool) => [tool.upstreamName, tool]));
    const taken = new Set<string>([...mirrored.values()].map((tool) => tool.name));
    // A sync applies the defaults the registration recorded in the mirrored tools.
    const defaults = how.defaults ?? recordedDefaultsOf(mirrored.values());
    const inputs: Array<CandidateInput<UpstreamTool>> = [];
    const refused: McpServerSync['skipped'] = [];
    for (const tool of listed.tools) {
      const mapping = mappingByUpstream.get(tool.name);
      const existing: ImportedToolRow | undefined =
        mapping === undefined ? undefined : mirrored.get(mapping.toolId);
      const imported = upstreamToolToCandidate(
        tool,
        { id: server.id, name: server.name, url: server.url, headers },
        { namePrefix: server.namePrefix ?? '', taken, name: existing?.name, defaults },
      );
      if (!imported.ok) {
        refused.push({ upstream_name: tool.name, reason: imported.reason });
        continue;
      }
      inputs.push({
        candidate: imported.candidate,
        source: tool,
        existing,
        retired: mapping !== undefined && mapping.removedAt !== null,
        timeoutMs: IMPORTED_TOOL_TIMEOUT_MS,
        outputSchema: imported.outputSchema,
        title: tool.title ?? tool.annotations?.title,
      });
    }
    const unmappedNames = inputs
      .filter((input) => input.existing === undefined)
      .map((input) => input.candidate.name);
    const byName = new Map(
      (await this.imports.findTools(server.teamId, unmappedNames)).map((tool) => [tool.name, tool]),
    );
    const origin = { kind: 'mcp', server_id: server.id, server_name: server.name };
    const plan = planImport(inputs, {
      principal,
      teamId: server.teamId,
      publish: server.publish,
      byName,
      origin,
      teamSecrets: await this.secrets.teamSecretNames(server.teamId),
    });

    // A refused tool that was mirrored before is gone as far as the gateway can call it.
    const upstreamNames = new Set(inputs.map((input) => input.source.name));
    const now = new Date();
    const sunsetAt = new Date(now.getTime() + REMOVED_TOOL_SUNSET_MS);
    const removed: McpServerSync['removed'] = [];
    const audit: AuditEntry[] = [...plan.audit];
    for (const mapping of server.tools) {
      if (mapping.removedAt !== null || upstreamNames.has(mapping.upstreamName)) continue;
      const tool = mirrored.get(mapping.toolId);
      const versions = (tool?.versions ?? [])
        .filter((row) => row.deprecatedAt === null)
        .map((row) => row.version);
      removed.push({
        name: tool?.name ?? mapping.upstreamName,
        tool_id: mapping.toolId,
        upstream_name: mapping.upstreamName,
        deprecated_versions: versions,
        sunset_at: sunsetAt.toISOString(),
      });
      audit.push({
        actor: principal.actor,
        teamId: server.teamId,
        action: 'tool_version.deprecated',
        entityType: 'tool',
        entityId: mapping.toolId,
        data: {
          versions,
          sunset_at: sunsetAt.toISOString(),
          reason:
            refused.find((tool) => tool.upstream_name === mapping.upstreamName)?.reason ??
            'removed upstream',
          import: origin,
        },
      });
    }
    const planned = plan.planned;
    const result = {
      added: planned
        .filter((entry) => !mappingByUpstream.has(entry.source.name))
        .map((entry) => entry.dto),
      changed: planned
        .filter(
          (entry) => mappingByUpstream.has(entry.source.name) && entry.plan.action !== 'unchanged',
        )
        .map((entry) => entry.dto),
      unchanged: planned
        .filter(
          (entry) => mappingByUpstream.has(entry.source.name) && entry.plan.action === 'unchanged',
        )
        .map((entry) => ({
          name: entry.dto.name,
          tool_id: entry.dto.tool_id,
          version: entry.dto.version,
        })),
      removed,
      skipped: [
        ...listed.invalid,
        ...refused,
        ...plan.failed.map((failure) => ({
          upstream_name: failure.source.name,
          reason: failure.reason,
        })),
      ],
      tools_needing_approval: planned.filter((entry) => entry.dto.needs_approval).length,
    };
    audit.push({
      actor: principal.actor,
      teamId: server.teamId,
      action: created ? 'mcp_server.registered' : 'mcp_server.synced',
      entityType: 'mcp_server',
      entityId: server.id,
      data: {
        name: server.name,
        url: server.url,
        added: result.added.map((tool) => `${tool.name}@${tool.version}`),
        changed: result.changed.map((tool) => `${tool.name}@${tool.version}`),
        removed: removed.map((tool) => tool.name),
        unchanged: result.unchanged.length,
        skipped: result.skipped.length,
      },
    });
    const { tools: _tools, createdAt: _createdAt, lastSyncedAt: _lastSyncedAt, ...row } = server;
    await this.imports.apply({
      versions: plan.versions,
      deprecations: removed.map((tool) => ({ toolId: tool.tool_id, sunsetAt })),
      server: {
        create: created ? row : undefined,
        id: server.id,
        syncedAt: now,
        tools: [
          ...planned.map((entry) => ({
            id: mappingByUpstream.get(entry.source.name)?.id ?? randomUUID(),
            upstreamName: entry.source.name,
            toolId: entry.plan.toolId,
            removed: false,
          })),
          ...removed.map((tool) => ({
            id: mappingByUpstream.get(tool.upstream_name)?.id ?? randomUUID(),
            upstreamName: tool.upstream_name,
            toolId: tool.tool_id,
            removed: true,
          })),
        ],
      },
      audit,
    });
    this.cache.invalidate();
    const saved = await this.imports.findServer(server.id);
    if (saved === null) throw new ToolException('internal', 'The server vanished after its sync.');
    return { server: serverToDto(saved), ...result };
  }
}
