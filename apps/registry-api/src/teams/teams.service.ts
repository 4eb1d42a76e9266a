import { randomUUID } from 'node:crypto';
import { Injectable, Inject } from '@nestjs/common';
import type { CreateTeamInput, Team, TeamList, UpdateTeamInput } from '@toolgate/contract';
import { ownsTeam, type Principal } from '../auth/principal';
import { ToolException } from '../problem/tool.exception';
import { TeamsRepository, type TeamRow } from './teams.repository';

function toDto(team: TeamRow): Team {
  return {
    id: team.id,
    slug: team.slug,
    name: team.name,
    allow_self_approval: team.allowSelfApproval,
    created_at: team.createdAt.toISOString(),
  };
}

@Injectable()
export class TeamsService {
  constructor(@Inject(TeamsRepository) private readonly teams: TeamsRepository) {}

  async create(principal: Principal, body: CreateTeamInput): Promise<Team> {
    // Teams are created by the operator (bootstrap key), never by a team's own key.
    if (principal.teamId !== null) {
      throw new ToolException('forbidden', 'Only the installation admin key creates teams.');
    }
    const id = randomUUID();
    const team = await this.teams.create(
      { id, ...body },
      {
        actor: principal.actor,
        teamId: id,
        action: 'team.created',
        entityType: 'team',
        entityId: id,
        data: { ...body },
      },
    );
    return toDto(team);
  }

  /**
   * Changes a team's settings: a team's admin key its own team, the installation key and console
   * admins any team. Another team is a 404, as if it did not exist. Audited as `team.updated`.
   */
  async update(principal: Principal, id: string, body: UpdateTeamInput): Promise<Team> {
    const updated = ownsTeam(principal, id)
      ? await this.teams.updateSettings(
          id,
          { allowSelfApproval: body.allow_self_approval },
          (before) => ({
            actor: principal.actor,
            teamId: id,
            action: 'team.updated',
            entityType: 'team',
            entityId: id,
            data: {
              before: { allow_self_approval: before.allowSelfApproval },
              after: { allow_self_approval: body.allow_self_approval ?? before.allowSelfApproval },
            },
          }),
        )
      : null;
    if (updated === null) throw new ToolException('not_found', `Team ${id} was not found.`);
    return toDto(updated);
  }

  async list(principal: Principal): Promise<TeamList> {
    return { items: (await this.teams.list(principal.teamId)).map(toDto) };
  }
}
