import { z } from 'zod';
import { defineRoute } from '../route/route';
import {
  CreateTeamSchema,
  TeamIdSchema,
  TeamListSchema,
  TeamSchema,
  UpdateTeamSchema,
} from './teams.schemas';

const tags = ['teams'] as const;

export const teamsRoutes = {
  createTeam: defineRoute({
    operationId: 'createTeam',
    method: 'post',
    path: '/v1/teams',
    summary: 'Create a team (installation admin key only).',
    description:
      "A team's own key is refused (`forbidden`): teams are made by the installation admin key or a console admin.",
    tags,
    security: 'api_key',
    scopes: ['admin'],
    body: CreateTeamSchema,
    bodyExamples: { payments: { slug: 'payments', name: 'Payments' } },
    responses: { 201: { description: 'The team.', schema: TeamSchema } },
    problems: ['conflict'],
  }),
  listTeams: defineRoute({
    operationId: 'listTeams',
    method: 'get',
    path: '/v1/teams',
    summary: 'List teams visible to the key.',
    description:
      "A team's key sees its own team; the installation admin key and console users see every team, by slug.",
    tags,
    security: 'api_key',
    scopes: ['admin'],
    responses: { 200: { description: 'The teams, by slug.', schema: TeamListSchema } },
    problems: [],
  }),
  updateTeam: defineRoute({
    operationId: 'updateTeam',
    method: 'patch',
    path: '/v1/teams/{teamId}',
    summary: "Change a team's settings (`allow_self_approval`); a team key its own team; audited.",
    description: "Another team's id answers `not_found`, as if it did not exist.",
    tags,
    security: 'api_key',
    scopes: ['admin'],
    params: z.strictObject({ teamId: TeamIdSchema }),
    body: UpdateTeamSchema,
    bodyExamples: { allowSelfApproval: { allow_self_approval: true } },
    responses: { 200: { description: 'The team as changed.', schema: TeamSchema } },
    problems: ['not_found'],
  }),
};
