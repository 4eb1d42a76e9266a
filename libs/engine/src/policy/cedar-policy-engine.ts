import { createHash } from 'node:crypto';
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import type { CedarValueJson, EntityJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { PolicyDecision, PolicyEngine, PolicyInput, PolicyOAuth } from './policy-engine';
import { PolicyInputSchema } from './policy-engine';
import { parsePolicyText } from './validate-policies';
import type { ParsedPolicy } from './validate-policies';

/** A policy set that permits every call: the sensible starting point, since Cedar denies by default. */
export const DEFAULT_POLICY_TEXT = `@id("permit-all")
permit(principal, action == Action::"execute", resource);
`;

/** What to do when a forbid policy errors while evaluating (e.g. reads an argument the call lacks). */
export type ForbidErrorMode = 'deny' | 'ignore';

/** Options of the Cedar policy engine. */
export interface CedarPolicyEngineOptions {
  /** A revision label for decisions; defaults to a hash of the policy text. */
  revision?: string;
  /** `deny` (default) fails closed: Cedar itself ignores a policy that errors, which would let a broken forbid allow. */
  onForbidError?: ForbidErrorMode;
}

// Cedar's JSON format gives these keys a meaning (entity references, extension values): arguments
// must never be able to forge them.
const RESERVED_KEYS = new Set(['__entity', '__extn', '__expr']);

/** Turns arbitrary JSON into Cedar values: null is dropped, non-integer numbers become strings. */
function toCedarValue(value: unknown): CedarValueJson | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : String(value);
  if (Array.isArray(value)) {
    return value.map(toCedarValue).filter((item): item is CedarValueJson => item !== undefined);
  }
  if (typeof value === 'object') {
    const record: Record<string, CedarValueJson> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (RESERVED_KEYS.has(key)) continue;
      const converted = toCedarValue(item);
      if (converted !== undefined) record[key] = converted;
    }
    return record;
  }
  return undefined;
}

// An OAuth caller's token as Caller attributes. `oauth_scopes` is there for every caller (empty
// for an API key), so `principal.oauth_scopes.contains(..)` needs no `has`; the others only for
// an OAuth caller (`principal has oauth_client_id && ..`).
function oauthAttributes(oauth: PolicyOAuth | undefined): Record<string, CedarValueJson> {
  if (oauth === undefined) return { oauth_scopes: [] };
  return {
    oauth_scopes: oauth.scopes,
    oauth_issuer: oauth.issuer,
    oauth_subject: oauth.subject,
    ...(oauth.client_id === null ? {} : { oauth_client_id: oauth.client_id }),
  };
}

function entitiesFor(input: PolicyInput): EntityJson[] {
  return [
    {
      uid: { type: 'Caller', id: input.principal.key_id },
      attrs: {
        team: input.principal.team,
        key: input.principal.key_id,
        scopes: input.principal.scopes,
        ...oauthAttributes(input.principal.oauth),
      },
      parents: [{ type: 'Team', id: input.principal.team }],
    },
    { uid: { type: 'Team', id: input.principal.team }, attrs: {}, parents: [] },
    {
      uid: { type: 'Tool', id: input.tool.name },
      attrs: {
        name: input.tool.name,
        version: input.tool.version,
        tags: input.tool.tags,
        ...input.tool.behavior,
      },
      parents: [],
    },
  ];
}

/**
 * Decides with Cedar: principal `Caller::"<key_id>"` (in `Team::"<team>"`; attributes team, key,
 * scopes, oauth_scopes, and for an OAuth caller oauth_issuer, oauth_subject, oauth_client_id),
 * action `Action::"execute"`, resource `Tool::"<name>"` (attributes name, version, tags and the behavior flags),
 * context `{arguments}`. A satisfied `forbid` denies with its `@reason`; a satisfied permit annotated
 * `@approval("required")` requires approval; otherwise a satisfied permit allows and no permit denies.
 */
export class CedarPolicyEngine implements PolicyEngine {
  /** The revision label every decision carries. */
  readonly revision: string;
  private readonly policies: ParsedPolicy[];
  private readonly byId: Map<string, ParsedPolicy>;
  private readonly staticPolicies: Record<string, string>;
  private readonly onForbidError: ForbidErrorMode;

  /** Parses the policy text; throws an Error listing the problems when it is invalid (see `validatePolicies`). */
  constructor(policyText: string, options: CedarPolicyEngineOptions = {}) {
    const parsed = parsePolicyText(policyText);
    if (!parsed.ok) {
      throw new Error(
        `invalid policies: ${parsed.errors.map((error) => error.message).join('; ')}`,
      );
    }
    this.policies = parsed.policies;
    this.byId = new Map(parsed.policies.map((policy) => [policy.id, policy]));
    this.staticPolicies = Object.fromEntries(
      parsed.policies.map((policy) => [policy.id, policy.text]),
    );
    this.revision =
      options.revision ?? createHash('sha256').update(policyText).digest('hex').slice(0, 12);
    this.onForbidError = options.onForbidError ?? 'deny';
  }

  /** The policies in the set, with the ids decisions refer to. */
  get policyIds(): string[] {
    return this.policies.map((policy) => policy.id);
  }

  decide(input: PolicyInput): Promise<PolicyDecision> {
    return Promise.resolve(this.decideNow(input));
  }

  /** Synchronous `decide`, for dry runs. */
  decideNow(rawInput: PolicyInput): PolicyDecision {
    const input = PolicyInputSchema.parse(rawInput);
    const base = { policy_revision: this.revision };
    const answer = cedar.isAuthorized({
      principal: { type: 'Caller', id: input.principal.key_id },
      action: { type: 'Action', id: 'execute' },
      resource: { type: 'Tool', id: input.tool.name },
      context: { arguments: toCedarValue(input.arguments) ?? {} },
      policies: { staticPolicies: this.staticPolicies },
      entities: entitiesFor(input),
    });
    if (answer.type === 'failure') {
      return {
        ...base,
        effect: 'deny',
        reason: `The policy could not be evaluated: ${answer.errors.map((error) => error.message).join('; ')}`,
      };
    }
    const { decision, diagnostics } = answer.response;
    const evaluationErrors = diagnostics.errors.map((error) => ({
      policy_id: error.policyId,
      message: error.error.message,
    }));
    const withErrors = evaluationErrors.length > 0 ? { evaluation_errors: evaluationErrors } : {};
    if (this.onForbidError === 'deny') {
      const broken = evaluationErrors.find(
        (error) => this.byId.get(error.policy_id)?.effect === 'forbid',
      );
      if (broken !== undefined) {
        return {
          ...base,
          ...withErrors,
          effect: 'deny',
          matched_rule: broken.policy_id,
          reason: `Policy ${broken.policy_id} could not be evaluated for this call (${broken.message}).`,
        };
      }
    }
    const satisfied = diagnostics.reason
      .map((id) => this.byId.get(id))
      .filter((policy): policy is ParsedPolicy => policy !== undefined);
    if (decision === 'deny') {
      const forbid = satisfied.find((policy) => policy.effect === 'forbid');
      if (forbid === undefined) {
        return { ...base, ...withErrors, effect: 'deny', reason: 'No policy permits this call.' };
      }
      return {
        ...base,
        ...withErrors,
        effect: 'deny',
        matched_rule: forbid.id,
        reason: forbid.reason ?? `Denied by policy ${forbid.id}.`,
      };
    }
    const approval = satisfied.find((policy) => policy.requires_approval);
    if (approval !== undefined) {
      return {
        ...base,
        ...withErrors,
        effect: 'require_approval',
        matched_rule: approval.id,
        reason: approval.reason ?? `Policy ${approval.id} requires a person's approval.`,
      };
    }
    const permit = satisfied[0];
    return {
      ...base,
      ...withErrors,
      effect: 'allow',
      ...(permit === undefined ? {} : { matched_rule: permit.id }),
      ...(permit?.reason === undefined ? {} : { reason: permit.reason }),
    };
  }
}
