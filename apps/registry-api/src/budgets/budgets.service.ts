import { Inject, Injectable } from '@nestjs/common';
import type {
  Budget,
  BudgetList,
  BudgetListQuery,
  BudgetParams,
  PutBudgetInput,
} from '@toolgate/contract';
import { budgetStateOf, microsToUsd, periodWindow } from '@toolgate/gateway';
import type { AuditEntry } from '../audit/audit.repository';
import { ApiKeysRepository } from '../api-keys/api-keys.repository';
import { ownsTeam, type Principal } from '../auth/principal';
import { GatewayHost } from '../calls/gateway-host';
import { CatalogSignalRepository } from '../catalog-events/catalog-signal.repository';
import { ToolException } from '../problem/tool.exception';
import { resolveTargetTeamId } from '../teams/resolve-target-team';
import { TeamsRepository } from '../teams/teams.repository';
import { BudgetsRepository, type BudgetRow } from './budgets.repository';

/**
 * Budgets of teams and API keys. Installation admins set teams' budgets; a team's admin keys set
 * the budgets of the team's own keys. A change clears the gateway catalog here and, by NOTIFY, in
 * every other process, so calls are checked against it from their next one on. The spend shown is
 * read from the same counters the call path adds to.
 */
@Injectable()
export class BudgetsService {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(BudgetsRepository) private readonly budgets: BudgetsRepository,
    @Inject(TeamsRepository) private readonly teams: TeamsRepository,
    @Inject(ApiKeysRepository) private readonly keys: ApiKeysRepository,
    @Inject(GatewayHost) private readonly gateway: GatewayHost,
    @Inject(CatalogSignalRepository) private readonly signals: CatalogSignalRepository,
  ) {}

  async list(principal: Principal, query: BudgetListQuery): Promise<BudgetList> {
    const teamId =
      query.team_id === undefined
        ? principal.teamId
        : await resolveTargetTeamId(this.teams, { principal, teamId: query.team_id });
    return { items: await this.withSpend(await this.budgets.list(teamId)) };
  }

  async get(principal: Principal, target: BudgetParams): Promise<Budget> {
    await this.teamOf(principal, target);
    const row = await this.budgets.find(target);
    if (row === null) throw notFound(target);
    const [budget] = await this.withSpend([row]);
    if (budget === undefined) throw notFound(target);
    return budget;
  }

  async put(principal: Principal, target: BudgetParams, body: PutBudgetInput): Promise<Budget> {
    const teamId = await this.teamOf(principal, target);
    this.requireMayChange(principal, target);
    const row = await this.budgets.set(
      {
        target,
        teamId,
        softUsd: body.soft_usd,
        hardUsd: body.hard_usd,
        actor: principal.actor,
      },
      (previous) =>
        this.audit(principal, {
          teamId,
          target,
          action: 'budget.set',
          data: {
            soft_usd: body.soft_usd,
            hard_usd: body.hard_usd,
            previous:
              previous === null ? null : { soft_usd: previous.softUsd, hard_usd: previous.hardUsd },
          },
        }),
    );
    await this.changed();
    const [budget] = await this.withSpend([row]);
    if (budget === undefined) throw notFound(target);
    return budget;
  }

  async delete(principal: Principal, target: BudgetParams): Promise<void> {
    const teamId = await this.teamOf(principal, target);
    this.requireMayChange(principal, target);
    const deleted = await this.budgets.delete(target, (previous) =>
      this.audit(principal, {
        teamId,
        target,
        action: 'budget.deleted',
        data: { previous: { soft_usd: previous.softUsd, hard_usd: previous.hardUsd } },
      }),
    );
    if (!deleted) throw notFound(target);
    await this.changed();
  }

  /** The team a budget's subject belongs to; a team or key the caller may not see is a 404. */
  private async teamOf(principal: Principal, target: BudgetParams): Promise<string> {
    if (target.scope === 'team') {
      const team = ownsTeam(principal, target.subjectId)
        ? await this.teams.findById(target.subjectId)
        : null;
      if (team === null)
        throw new ToolException('not_found', `Team ${target.subjectId} was not found.`);
      return team.id;
    }
    const key = await this.keys.findById(target.subjectId);
    if (key === null || !ownsTeam(principal, key.teamId)) {
      throw new ToolException('not_found', `API key ${target.subjectId} was not found.`);
    }
    return key.teamId;
  }

  /** A team's own admins must not lift the limit set on their team. */
  private requireMayChange(principal: Principal, target: BudgetParams): void {
    if (target.scope === 'team' && principal.teamId !== null) {
      throw new ToolException(
        'forbidden',
        "A team's budget is set by installation admins; a team's admin keys set its keys' budgets.",
        { extensions: { required_scopes: ['admin'] } },
      );
    }
  }

  /** Every process checks calls against the change from its next call on. */
  private async changed(): Promise<void> {
    this.gateway.catalog.invalidate();
    await this.signals.signal();
  }

  private async withSpend(rows: readonly BudgetRow[]): Promise<Budget[]> {
    const at = Date.now();
    const spent = await this.gateway.spend.read({ subjects: rows, at });
    return rows.map((row, index) => {
      const spentUsd = microsToUsd(spent[index] ?? 0);
      return {
        scope: row.scope,
        subject_id: row.subjectId,
        team_id: row.teamId,
        period: row.period,
        soft_usd: row.softUsd,
        hard_usd: row.hardUsd,
        spent_usd: spentUsd,
        state: budgetStateOf(row, spentUsd),
        resets_at: periodWindow(row.period, at).resetsAt.toISOString(),
        created_by: row.createdBy,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      };
    });
  }

  private audit(
    principal: Principal,
    change: { teamId: string; target: BudgetParams; action: string; data: Record<string, unknown> },
  ): AuditEntry {
    const { target } = change;
    return {
      actor: principal.actor,
      teamId: change.teamId,
      action: change.action,
      entityType: 'budget',
      entityId: `${target.scope}/${target.subjectId}/${target.period}`,
      data: {
        scope: target.scope,
        subject_id: target.subjectId,
        period: target.period,
        ...change.data,
      },
    };
  }
}

function notFound(target: BudgetParams): ToolException {
  return new ToolException(
    'not_found',
    `No ${target.period} budget for ${target.scope} ${target.subjectId}.`,
  );
}
