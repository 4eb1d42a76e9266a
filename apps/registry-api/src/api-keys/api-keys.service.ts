import { Injectable, Inject } from '@nestjs/common';
import type { ApiKey, ApiKeyList, CreateApiKeyInput, CreatedApiKey } from '@toolgate/contract';
import { generateApiKey } from '../auth/api-key-secret';
import { AuthCache } from '../auth/auth-cache';
import { ownsTeam, type Principal } from '../auth/principal';
import { ToolException } from '../problem/tool.exception';
import { resolveTargetTeamId } from '../teams/resolve-target-team';
import { TeamsRepository } from '../teams/teams.repository';
import { ApiKeysRepository, type ApiKeyRow } from './api-keys.repository';

function toDto(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    team_id: row.teamId,
    name: row.name,
    scopes: row.scopes,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

@Injectable()
export class ApiKeysService {
  constructor(
    @Inject(ApiKeysRepository) private readonly keys: ApiKeysRepository,
    @Inject(TeamsRepository) private readonly teams: TeamsRepository,
    @Inject(AuthCache) private readonly cache: AuthCache,
  ) {}

  async create(principal: Principal, body: CreateApiKeyInput): Promise<CreatedApiKey> {
    const teamId = await resolveTargetTeamId(this.teams, { principal, teamId: body.team_id });
    const key = generateApiKey();
    const row = await this.keys.create(
      {
        id: key.id,
        teamId,
        name: body.name,
        secretHash: key.secretHash,
        scopes: body.scopes,
        createdBy: principal.actor,
      },
      {
        actor: principal.actor,
        teamId,
        action: 'api_key.created',
        entityType: 'api_key',
        entityId: key.id,
        data: { name: body.name, scopes: body.scopes },
      },
    );
    return { ...toDto(row), key: key.token };
  }

  async list(principal: Principal): Promise<ApiKeyList> {
    return { items: (await this.keys.listByTeam(principal.teamId)).map(toDto) };
  }

  async revoke(principal: Principal, id: string): Promise<ApiKey> {
    const existing = await this.keys.findById(id);
    if (!existing || !ownsTeam(principal, existing.teamId)) {
      throw new ToolException('not_found', `API key ${id} was not found.`);
    }
    const revoked = await this.keys.revoke(id, {
      actor: principal.actor,
      teamId: existing.teamId,
      action: 'api_key.revoked',
      entityType: 'api_key',
      entityId: id,
      data: {},
    });
    if (!revoked) throw new ToolException('conflict', `API key ${id} is already revoked.`);
    this.cache.evictKey(id);
    return toDto(revoked);
  }
}
