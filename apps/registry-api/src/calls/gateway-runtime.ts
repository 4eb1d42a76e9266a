import { Inject, Injectable } from '@nestjs/common';
import {
  CedarPolicyEngine,
  ExecutorRegistry,
  allowAllPolicyEngine,
  createHttpExecutor,
  createMcpExecutor,
  StoredApprovalGate,
  type ExecutionContext,
  type PolicyEngine,
} from '@toolgate/engine';
import { ApprovalsRepository } from '../approvals/approvals.repository';
import { PoliciesRepository, type PolicyRow } from '../policies/policies.repository';
import { GATEWAY_OPTIONS, type GatewayOptions } from './gateway-options';

/** Who a batch of calls runs for: the team (policy scope, approvals) and the key that asked. */
export interface CallOwner {
  teamId: string;
  keyId: string | null;
  actor: string;
}

/** The engine ports of this process: executors, the team's policy and the Postgres approval gate. */
@Injectable()
export class GatewayRuntime {
  readonly executors: ExecutorRegistry;
  // Compiling Cedar text is not free; a revision's text never changes, so its engine is reused.
  private readonly engines = new Map<string, CedarPolicyEngine>();

  constructor(
    @Inject(GATEWAY_OPTIONS) readonly options: GatewayOptions,
    @Inject(ApprovalsRepository) private readonly approvals: ApprovalsRepository,
    @Inject(PoliciesRepository) private readonly policies: PoliciesRepository,
  ) {
    const secrets = options.secrets === undefined ? {} : { secrets: options.secrets };
    this.executors = new ExecutorRegistry({
      builtin: options.builtins,
      http: createHttpExecutor(secrets),
      mcp: createMcpExecutor(secrets),
    });
  }

  /** The context ports that depend on who calls; the caller adds the tool resolver, events and signal. */
  async contextFor(
    owner: CallOwner,
  ): Promise<Pick<ExecutionContext, 'executors' | 'policy' | 'approvals' | 'caller'>> {
    return {
      executors: this.executors,
      policy: await this.policyFor(owner.teamId),
      approvals: new StoredApprovalGate(this.approvals, {
        teamId: owner.teamId,
        requestedBy: owner.actor,
        ttlMs: this.options.approvalTtlMs,
      }),
      caller: { key_id: owner.keyId ?? owner.actor, team: owner.teamId, scopes: ['calls:execute'] },
    };
  }

  /** The team's active policy (else the installation's); every call is allowed when neither exists. */
  async policyFor(teamId: string): Promise<PolicyEngine> {
    const row = await this.policies.findEffective(teamId);
    return row === null ? allowAllPolicyEngine : this.engineOf(row);
  }

  engineOf(row: Pick<PolicyRow, 'id' | 'text' | 'revision'>): CedarPolicyEngine {
    let engine = this.engines.get(row.id);
    if (engine === undefined) {
      engine = new CedarPolicyEngine(row.text, { revision: String(row.revision) });
      this.engines.set(row.id, engine);
    }
    return engine;
  }
}
