import { defineRoute } from '../route/route';
import {
  BudgetListQuerySchema,
  BudgetListSchema,
  BudgetParamsSchema,
  BudgetSchema,
  PutBudgetSchema,
} from './budgets.schemas';

const tags = ['budgets'] as const;
const path = '/v1/budgets/{scope}/{subjectId}/{period}';
const WHO =
  "Team budgets are set by installation admins (the admin key, console admins); a team's admin keys set the budgets of the team's own keys. A budget of anything else answers `not_found`.";

export const budgetsRoutes = {
  listBudgets: defineRoute({
    operationId: 'listBudgets',
    method: 'get',
    path: '/v1/budgets',
    summary: "Budgets with the current period's spend and state.",
    description:
      "A team key lists its team's budget and its keys'; callers spanning teams every team's, or one with `?team_id=`.",
    tags,
    security: 'api_key',
    scopes: ['admin'],
    query: BudgetListQuerySchema,
    responses: { 200: { description: 'The budgets.', schema: BudgetListSchema } },
    problems: ['not_found'],
  }),
  getBudget: defineRoute({
    operationId: 'getBudget',
    method: 'get',
    path,
    summary: 'One budget with the current period’s spend and state.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    params: BudgetParamsSchema,
    responses: { 200: { description: 'The budget.', schema: BudgetSchema } },
    problems: ['not_found'],
  }),
  putBudget: defineRoute({
    operationId: 'putBudget',
    method: 'put',
    path,
    summary:
      'Set the soft and hard limits of a team’s or API key’s budget for a day or a month (audited).',
    description: `Calls past the hard limit are refused before they run with \`budget_exceeded\`; past the soft limit they run, with \`_meta.toolgate.budget\` in the result and a \`Toolgate-Budget\` header on POST /v1/calls. Every process enforces a change from its next call on. ${WHO}`,
    tags,
    security: 'api_key',
    scopes: ['admin'],
    params: BudgetParamsSchema,
    body: PutBudgetSchema,
    bodyExamples: {
      both: { soft_usd: 40, hard_usd: 50 },
      hardOnly: { soft_usd: null, hard_usd: 5 },
    },
    responses: { 200: { description: 'The budget as set.', schema: BudgetSchema } },
    problems: ['not_found'],
  }),
  deleteBudget: defineRoute({
    operationId: 'deleteBudget',
    method: 'delete',
    path,
    summary: 'Remove a budget (audited); the spend counted so far stays.',
    description: WHO,
    tags,
    security: 'api_key',
    scopes: ['admin'],
    params: BudgetParamsSchema,
    responses: { 204: { description: 'Removed.' } },
    problems: ['not_found'],
  }),
};
