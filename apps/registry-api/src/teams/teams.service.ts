import { randomUUID } from 'node:crypto';
import { Injectable, Inject } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import { ToolException, ToolExceptionCode } from '../problem/tool.exception';
import type { CreateTeamDto, TeamDto } from './teams.dto';
import { TeamsRepository, type TeamRow } from './teams.repository';

function toDto(team: TeamRow): TeamDto {
  return {
    id: team.id,
    slug: team.slug,
    name: team.name,
    created_at: team.createdAt.toISOString(),
  };
}

@Injectable()
export class TeamsService {
  constructor(@Inject(TeamsRepository) private readonly teams: TeamsRepository) {}

  async create(principal: Principal, body: CreateTeamDto): Promise<TeamDto> {
    // Teams are created by the operator (bootstrap key), never by a team's own key.
    if (principal.teamId !== null) {
      throw new ToolException(
        ToolExceptionCode.Forbidden,
        'Only the installation admin key creates teams.',
      );
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

  async list(principal: Principal): Promise<{ items: TeamDto[] }> {
    return { items: (await this.teams.list(principal.teamId)).map(toDto) };
  }
}
