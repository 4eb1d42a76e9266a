import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  CedarPolicyEngine,
  validatePolicies,
  type PolicyDecision,
  type PolicyInput,
  type PolicyOAuth,
} from '@toolgate/engine';
import type { CreatePolicyInput, Policy, PolicyList, TestPolicyInput } from '@toolgate/contract';
import type { ToolIR } from '@toolgate/toolir';
import { policyOAuthOf, type Principal } from '../auth/principal';
import { GatewayHost } from '../calls/gateway-host';
import { CatalogSignalRepository } from '../catalog-events/catalog-signal.repository';
import { ToolException } from '../problem/tool.exception';
import { resolveTargetTeamId } from '../teams/resolve-target-team';
import { TeamsRepository } from '../teams/teams.repository';
import { PoliciesRepository, policyScope, type PolicyRow } from './policies.repository';

export function policyToDto(row: PolicyRow): Policy {
  return {
    id: row.id,
    scope: row.scope,
    team_id: row.teamId,
    revision: row.revision,
    text: row.text,
    active: row.active,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}

function assertValid(text: string): void {
  const validation = validatePolicies(text);
  if (validation.ok) return;
  throw new ToolException(
    'invalid_policy',
    'The policy text is not valid Cedar for this gateway.',
    {
      issues: validation.errors.map((error) => ({
        path: '/body/text',
        message: `${error.line === undefined ? '' : `line ${error.line}, column ${error.column ?? 1}: `}${error.policyId === undefined ? '' : `${error.policyId}: `}${error.message}`,
      })),
      extensions: { policy_errors: validation.errors },
    },
  );
}

@Injectable()
export class PoliciesService {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(PoliciesRepository) private readonly policies: PoliciesRepository,
    @Inject(GatewayHost) private readonly gateway: GatewayHost,
    @Inject(CatalogSignalRepository) private readonly signals: CatalogSignalRepository,
    @Inject(TeamsRepository) private readonly teams: TeamsRepository,
  ) {}

  /** Adds a revision to the caller's scope (the team's, or the installation's for the bootstrap key). */
  async create(principal: Principal, body: CreatePolicyInput): Promise<Policy> {
    assertValid(body.text);
    const scope = policyScope(principal.teamId);
    const id = randomUUID();
    const created = await this.policies.create(
      { id, scope, teamId: principal.teamId, text: body.text, createdBy: principal.actor },
      (revision) => ({
        actor: principal.actor,
        teamId: principal.teamId,
        action: 'policy.created',
        entityType: 'policy',
        entityId: id,
        data: { scope, revision },
      }),
    );
    return body.activate ? this.activate(principal, created.revision) : policyToDto(created);
  }

  async list(principal: Principal): Promise<PolicyList> {
    return { items: (await this.policies.list(policyScope(principal.teamId))).map(policyToDto) };
  }

  async activate(principal: Principal, revision: number): Promise<Policy> {
    const scope = policyScope(principal.teamId);
    const activated = await this.policies.activate(scope, revision, {
      actor: principal.actor,
      teamId: principal.teamId,
      action: 'policy.activated',
      entityType: 'policy',
      entityId: `${scope}#${revision}`,
      data: { scope, revision },
    });
    if (activated === null) {
      throw new ToolException('not_found', `Policy revision ${revision} was not found.`);
    }
    // Every process that runs calls decides them with the new revision from its next call on.
    this.gateway.catalog.invalidate();
    await this.signals.signal();
    return policyToDto(activated);
  }

  /** The decision a policy text (or the active policy) makes for a sample call; nothing is saved. */
  async test(principal: Principal, body: TestPolicyInput): Promise<PolicyDecision> {
    // Policies decide calls of a team: the sample call is one of the chosen team's (a team key's
    // own; naming another team is a 404, as if it did not exist).
    const teamId = await resolveTargetTeamId(this.teams, { principal, teamId: body.team_id });
    const tool = (await this.gateway.catalog.callableTools([body.call.name], teamId)).get(
      body.call.name,
    );
    const row = tool?.versions.find((version) => version.version === tool.release?.stableVersion);
    if (tool === undefined || row === undefined) {
      throw new ToolException('unknown_tool', `No callable tool named "${body.call.name}".`, {
        issues: [
          {
            path: '/body/call/name',
            message: 'names no tool with a stable release for this team',
          },
        ],
      });
    }
    const ir: ToolIR = row.ir;
    const input: PolicyInput = {
      principal: {
        key_id: principal.keyId ?? principal.actor,
        team: teamId,
        scopes: ['calls:execute'],
        ...oauthOf(principal),
      },
      tool: {
        name: ir.name,
        version: row.version,
        tags: ir.tags ?? [],
        behavior: {
          readonly: ir.behavior.readonly,
          destructive: ir.behavior.destructive,
          idempotent: ir.behavior.idempotent,
          open_world: ir.behavior.open_world,
          requires_approval: ir.behavior.requires_approval,
        },
      },
      arguments: body.call.arguments,
    };
    if (body.text === undefined)
      return (await this.gateway.catalog.policyFor(teamId)).decide(input);
    assertValid(body.text);
    return new CedarPolicyEngine(body.text, { revision: 'draft' }).decide(input);
  }
}

// The caller's OAuth token, where it has one, as the policies see it when the call runs.
function oauthOf(principal: Principal): { oauth?: PolicyOAuth } {
  const oauth = policyOAuthOf(principal);
  return oauth === null ? {} : { oauth };
}
