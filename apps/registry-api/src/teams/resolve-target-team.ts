import { ownsTeam, type Principal } from '../auth/principal';
import { ToolException } from '../problem/tool.exception';
import type { TeamsRepository } from './teams.repository';

/**
 * The team a create request writes into: the body's `team_id`, else the caller's own team. The
 * installation admin key has no team, so it must name one; a team key naming another team gets 404,
 * as if that team did not exist.
 */
export async function resolveTargetTeamId(
  teams: Pick<TeamsRepository, 'findById'>,
  request: { principal: Principal; teamId: string | undefined },
): Promise<string> {
  const { principal } = request;
  const teamId = request.teamId ?? principal.teamId;
  if (teamId === null) {
    throw new ToolException('invalid_request', 'The installation admin key must name the team.', {
      issues: [{ path: '/body/team_id', message: 'is required with the installation admin key' }],
    });
  }
  const team = ownsTeam(principal, teamId) ? await teams.findById(teamId) : null;
  if (!team) throw new ToolException('not_found', `Team ${teamId} was not found.`);
  return teamId;
}
