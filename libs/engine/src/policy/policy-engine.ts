import { z } from 'zod';

/** The OAuth access token a caller presented (at /mcp), as its authorization server issued it. */
export const PolicyOAuthSchema = z.strictObject({
  issuer: z.string().min(1),
  subject: z.string().min(1),
  client_id: z.string().min(1).nullable(),
  /** The token's OAuth scopes, before the scope map turned them into Toolgate scopes. */
  scopes: z.array(z.string().min(1)),
});
/** An OAuth caller's token. */
export type PolicyOAuth = z.infer<typeof PolicyOAuthSchema>;

/** Who is calling: the API key (or OAuth subject), its team and its scopes. */
export const PolicyPrincipalSchema = z.strictObject({
  key_id: z.string().min(1),
  team: z.string().min(1),
  scopes: z.array(z.string().min(1)),
  /** Present when the caller presented an OAuth access token. */
  oauth: PolicyOAuthSchema.optional(),
});
/** Who is calling. */
export type PolicyPrincipal = z.infer<typeof PolicyPrincipalSchema>;

/** What the policy sees of a call: the caller, the tool (name, version, tags, behavior) and the arguments. */
export const PolicyInputSchema = z.strictObject({
  principal: PolicyPrincipalSchema,
  tool: z.strictObject({
    name: z.string().min(1),
    version: z.string().min(1),
    tags: z.array(z.string()),
    behavior: z.strictObject({
      readonly: z.boolean(),
      destructive: z.boolean(),
      idempotent: z.boolean(),
      open_world: z.boolean(),
      requires_approval: z.enum(['always', 'never', 'if_destructive']),
    }),
  }),
  arguments: z.record(z.string(), z.unknown()),
});
/** What the policy sees of a call. */
export type PolicyInput = z.infer<typeof PolicyInputSchema>;

/** A policy decision: the effect, why (shown to the model on deny), and which rule of which revision decided. */
export interface PolicyDecision {
  effect: 'allow' | 'deny' | 'require_approval';
  /** Shown to the model when the call is denied, and to the approver when approval is required. */
  reason?: string;
  /** Identifies the policy text that decided, so a decision can be traced back after policies change. */
  policy_revision: string;
  /** The id of the deciding policy; absent for a default decision. */
  matched_rule?: string;
  /** Policies that could not be evaluated for this input (Cedar evaluation errors). */
  evaluation_errors?: { policy_id: string; message: string }[];
}

/** Decides whether a call may run; the Cedar engine is one implementation. */
export interface PolicyEngine {
  decide(input: PolicyInput): Promise<PolicyDecision>;
}

/** A policy engine that allows everything, used when no policy is configured. */
export const allowAllPolicyEngine: PolicyEngine = {
  decide: () =>
    Promise.resolve({ effect: 'allow', policy_revision: 'none', reason: 'no policy configured' }),
};
