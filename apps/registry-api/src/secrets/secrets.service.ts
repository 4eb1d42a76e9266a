import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { readExecutorConfig, secretReferencesOf, type SecretResolver } from '@toolgate/engine';
import type {
  CreateSecretInput,
  DeleteSecretQuery,
  RotateSecretInput,
  Secret,
  SecretList,
  SecretReference,
  SecretTeamQuery,
} from '@toolgate/contract';
import type { ToolIR } from '@toolgate/toolir';
import type { AuditEntry } from '../audit/audit.repository';
import type { Principal } from '../auth/principal';
import { ToolException } from '../problem/tool.exception';
import { resolveTargetTeamId } from '../teams/resolve-target-team';
import { TeamsRepository } from '../teams/teams.repository';
import { SecretVault } from './secret-vault';
import { SecretsRepository, type SecretRow, type SecretUse } from './secrets.repository';

function referenceToDto(use: SecretUse): SecretReference {
  return {
    tool_id: use.toolId,
    tool_name: use.toolName,
    version: use.version,
    status: use.status,
    release: use.release,
    pointer: use.pointer,
  };
}

function toDto(row: SecretRow, uses: readonly SecretUse[]): Secret {
  return {
    name: row.name,
    team_id: row.teamId,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    referenced_by: uses
      .filter((use) => use.teamId === row.teamId && use.secret === row.name)
      .map(referenceToDto),
  };
}

/**
 * The secret store's routes. Values go in (sealed under the current key) and never come out: every
 * answer and audit event names the secret only. A rotation or deletion clears this process's cache
 * at once; other processes' caches expire within SECRET_CACHE_TTL_MS.
 */
@Injectable()
export class SecretsService {
  constructor(
    @Inject(SecretsRepository) private readonly secrets: SecretsRepository,
    @Inject(TeamsRepository) private readonly teams: TeamsRepository,
    @Inject(SecretVault) private readonly vault: SecretVault,
  ) {}

  /** The resolver of one team's secrets, for imports that connect at import time. */
  resolverFor(teamId: string): SecretResolver {
    return this.vault.store.forTeam(teamId);
  }

  async create(principal: Principal, body: CreateSecretInput): Promise<Secret> {
    const keyring = this.vault.requireKeyring();
    const teamId = await resolveTargetTeamId(this.teams, { principal, teamId: body.team_id });
    const id = randomUUID();
    const created = await this.secrets.create(
      {
        id,
        teamId,
        name: body.name,
        createdBy: principal.actor,
        sealed: keyring.seal(body.value, { teamId, name: body.name }),
      },
      this.audit(principal, { teamId, action: 'secret.created', name: body.name }),
    );
    if (created === null) {
      throw new ToolException(
        'conflict',
        `The team already has a secret named ${body.name}; rotate it with PUT /v1/secrets/${body.name}.`,
        { issues: [{ path: '/body/name', message: 'already exists' }] },
      );
    }
    // A call that looked for the name before it existed may have cached "missing".
    this.vault.store.forget(teamId, body.name);
    return toDto(created, await this.secrets.uses(teamId));
  }

  async list(principal: Principal, query: SecretTeamQuery): Promise<SecretList> {
    this.vault.requireKeyring();
    const teamId =
      query.team_id === undefined
        ? principal.teamId
        : await resolveTargetTeamId(this.teams, { principal, teamId: query.team_id });
    const [rows, uses] = await Promise.all([this.secrets.list(teamId), this.secrets.uses(teamId)]);
    return { items: rows.map((row) => toDto(row, uses)) };
  }

  async rotate(
    principal: Principal,
    target: { name: string; query: SecretTeamQuery },
    body: RotateSecretInput,
  ): Promise<Secret> {
    const { name, query } = target;
    const keyring = this.vault.requireKeyring();
    const teamId = await this.teamOf(principal, query);
    const rotated = await this.secrets.rotate(
      { teamId, name },
      keyring.seal(body.value, { teamId, name }),
      this.audit(principal, { teamId, action: 'secret.rotated', name }),
    );
    if (rotated === null) throw this.notFound(name);
    this.vault.store.forget(teamId, name);
    return toDto(rotated, await this.secrets.uses(teamId));
  }

  async delete(principal: Principal, name: string, query: DeleteSecretQuery): Promise<void> {
    this.vault.requireKeyring();
    const teamId = await this.teamOf(principal, query);
    if ((await this.secrets.find(teamId, name)) === null) throw this.notFound(name);
    const served = (await this.secrets.uses(teamId)).filter(
      (use) => use.secret === name && use.release !== null,
    );
    if (served.length > 0 && !query.force) {
      const versions = served.map((use) => `${use.toolName}@${use.version} (${use.release})`);
      throw new ToolException(
        'secret_in_use',
        `Secret ${name} is referenced by ${versions.join(', ')}, which are served; their calls would fail. Release other versions first, or delete with ?force=true.`,
        { extensions: { referenced_by: served.map(referenceToDto) } },
      );
    }
    const deleted = await this.secrets.delete(
      { teamId, name },
      this.audit(principal, {
        teamId,
        action: 'secret.deleted',
        name,
        data: { forced: served.length > 0 },
      }),
    );
    if (!deleted) throw this.notFound(name);
    this.vault.store.forget(teamId, name);
  }

  /** The names of the team's secrets (never their values), for saying what a tool still lacks. */
  teamSecretNames(teamId: string): Promise<Set<string>> {
    return this.secrets.namesOf(teamId);
  }

  /**
   * The 422 for a version referencing secrets its team does not have, each with a JSON Pointer
   * (under `base`, where the executor config sits in the request) to where it is referenced.
   */
  async requireReferencedSecrets(teamId: string, ir: ToolIR, base: string): Promise<void> {
    const read = readExecutorConfig(ir);
    if (!read.ok) return;
    const references = secretReferencesOf(read.config);
    const existing = await this.secrets.existingNames(
      teamId,
      references.map((reference) => reference.name),
    );
    const missing = references.filter((reference) => !existing.has(reference.name));
    if (missing.length === 0) return;
    const names = [...new Set(missing.map((reference) => reference.name))];
    throw new ToolException(
      'missing_secrets',
      `The version references secrets the team does not have: ${names.join(', ')}. Create them with POST /v1/secrets, then publish again.`,
      {
        issues: missing.map((reference) => ({
          path: `${base}${reference.pointer}`,
          message: `names secret ${reference.name}, which the team does not have`,
        })),
        extensions: { missing_secrets: names },
      },
    );
  }

  private async teamOf(principal: Principal, query: SecretTeamQuery): Promise<string> {
    if (principal.teamId === null && query.team_id === undefined) {
      throw new ToolException('invalid_request', 'Name the team with ?team_id=.', {
        issues: [{ path: '/query/team_id', message: 'is required for a caller spanning teams' }],
      });
    }
    return resolveTargetTeamId(this.teams, { principal, teamId: query.team_id });
  }

  private notFound(name: string): ToolException {
    return new ToolException('not_found', `Secret ${name} was not found.`);
  }

  /** The audit entry of a change: the secret's name, never its value. */
  private audit(
    principal: Principal,
    change: { teamId: string; action: string; name: string; data?: Record<string, unknown> },
  ): AuditEntry {
    return {
      actor: principal.actor,
      teamId: change.teamId,
      action: change.action,
      entityType: 'secret',
      entityId: `${change.teamId}/${change.name}`,
      data: { name: change.name, ...change.data },
    };
  }
}
