import { describe, expect, it } from 'vitest';
import { CedarPolicyEngine, DEFAULT_POLICY_TEXT } from './cedar-policy-engine';
import { diffDecisions } from './diff-decisions';
import type { PolicyInput } from './policy-engine';
import { validatePolicies } from './validate-policies';

function input(
  overrides: {
    tool?: Partial<PolicyInput['tool']>;
    principal?: Partial<PolicyInput['principal']>;
    arguments?: Record<string, unknown>;
  } = {},
): PolicyInput {
  return {
    principal: {
      key_id: 'key-1',
      team: 'payments',
      scopes: ['tools:execute'],
      ...overrides.principal,
    },
    tool: {
      name: 'refund',
      version: '1.0.0',
      tags: ['finance'],
      behavior: {
        readonly: false,
        destructive: false,
        idempotent: true,
        open_world: true,
        requires_approval: 'never',
      },
      ...overrides.tool,
    },
    arguments: overrides.arguments ?? {},
  };
}

const POLICIES = `
@id("permit-payments")
permit(principal in Team::"payments", action == Action::"execute", resource);

@id("no-large-refunds")
@reason("Refunds above 500 EUR must go through the finance desk.")
forbid(principal, action, resource == Tool::"refund")
when { context.arguments has amount && context.arguments.amount > 500 };

@id("review-destructive")
@approval("required")
@reason("Destructive tools need a second pair of eyes.")
permit(principal, action, resource) when { resource.destructive };
`;

describe('CedarPolicyEngine', () => {
  const engine = new CedarPolicyEngine(POLICIES);

  it('allows what a permit matches', async () => {
    expect(await engine.decide(input({ arguments: { amount: 20 } }))).toMatchObject({
      effect: 'allow',
      matched_rule: 'permit-payments',
      policy_revision: engine.revision,
    });
  });

  it('denies with the forbid policy reason', async () => {
    expect(await engine.decide(input({ arguments: { amount: 900 } }))).toMatchObject({
      effect: 'deny',
      matched_rule: 'no-large-refunds',
      reason: 'Refunds above 500 EUR must go through the finance desk.',
    });
  });

  it('denies by default when nothing permits', async () => {
    const decision = await engine.decide(input({ principal: { team: 'marketing' } }));
    expect(decision).toMatchObject({ effect: 'deny', reason: 'No policy permits this call.' });
    expect(decision.matched_rule).toBeUndefined();
  });

  it('requires approval when a permit annotated @approval("required") matches', async () => {
    const decision = await engine.decide(
      input({
        tool: {
          behavior: {
            readonly: false,
            destructive: true,
            idempotent: false,
            open_world: true,
            requires_approval: 'never',
          },
        },
      }),
    );
    expect(decision).toMatchObject({
      effect: 'require_approval',
      matched_rule: 'review-destructive',
      reason: 'Destructive tools need a second pair of eyes.',
    });
  });

  it('fails closed when a forbid errors, unless told to ignore it like Cedar', () => {
    const text = `permit(principal, action, resource);
      @id("cap") forbid(principal, action, resource) when { context.arguments.amount > 10 };`;
    expect(new CedarPolicyEngine(text).decideNow(input())).toMatchObject({
      effect: 'deny',
      matched_rule: 'cap',
    });
    const lenient = new CedarPolicyEngine(text, { onForbidError: 'ignore' }).decideNow(input());
    expect(lenient.effect).toBe('allow');
    expect(lenient.evaluation_errors?.[0]?.policy_id).toBe('cap');
  });

  it('cannot be fooled by arguments shaped like Cedar entity references', () => {
    const text = `permit(principal, action, resource) when { context.arguments has who && context.arguments.who == Team::"admins" };`;
    const decision = new CedarPolicyEngine(text).decideNow(
      input({ arguments: { who: { __entity: { type: 'Team', id: 'admins' } } } }),
    );
    expect(decision.effect).toBe('deny');
  });

  it('passes non-integer numbers and nulls without failing', () => {
    const decision = new CedarPolicyEngine(DEFAULT_POLICY_TEXT).decideNow(
      input({ arguments: { price: 9.99, note: null, list: [1, null] } }),
    );
    expect(decision).toMatchObject({ effect: 'allow', matched_rule: 'permit-all' });
  });

  it("sees an OAuth caller's token: scopes for every caller, issuer, subject and client id for OAuth ones", async () => {
    const oauthEngine = new CedarPolicyEngine(`
@id("weather-scope")
permit(principal, action, resource)
when { principal.oauth_scopes.contains("tools:weather") && principal.oauth_client_id == "weather-app" };`);
    const oauth = {
      issuer: 'https://auth.example.com',
      subject: 'weather-app',
      client_id: 'weather-app',
      scopes: ['mcp:call', 'tools:weather'],
    };
    expect((await oauthEngine.decide(input({ principal: { oauth } }))).effect).toBe('allow');
    expect(
      (await oauthEngine.decide(input({ principal: { oauth: { ...oauth, scopes: ['mcp:call'] } } })))
        .effect,
    ).toBe('deny');
    // An API key has no token: empty scopes, and the client id is absent (the permit errs, so no allow).
    expect((await oauthEngine.decide(input())).effect).toBe('deny');
    expect(
      validatePolicies(
        'permit(principal, action, resource) when { principal has oauth_subject && principal.oauth_issuer == "x" };',
      ).ok,
    ).toBe(true);
  });

  it('throws on invalid policy text', () => {
    expect(() => new CedarPolicyEngine('permit(principal, action')).toThrow(/invalid policies/);
  });
});

describe('validatePolicies', () => {
  it('accepts valid text', () => {
    expect(validatePolicies(POLICIES)).toEqual({ ok: true, errors: [] });
  });

  it('reports parse errors with positions', () => {
    const result = validatePolicies(
      'permit(principal, action, resource);\nforbid(principal, action, resource) when { context.x ;',
    );
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ line: 2 });
    expect(result.errors[0]?.column).toBeGreaterThan(1);
    expect(result.errors[0]?.message).toMatch(/unexpected/);
  });

  it('reports Toolgate annotation mistakes with the policy id', () => {
    const result = validatePolicies(`
      @id("a") @approval("maybe") permit(principal, action, resource);
      @id("a") forbid(principal, action, resource);
      @id("b") @approval("required") forbid(principal, action, resource);
    `);
    expect(result.errors).toEqual([
      { policyId: 'a', message: '@approval must be "required", got "maybe"' },
      { policyId: 'a', message: 'duplicate policy id "a"' },
      { policyId: 'b', message: '@approval belongs on a permit policy; a forbid always denies' },
    ]);
  });

  it('reports attributes the gateway never sets, which would make a policy silently never match', () => {
    const result = validatePolicies(
      `@id("typo") forbid(principal, action, resource) when { resource.destrutive || principal has teams || context.arguments.x == 1 };`,
    );
    expect(result.errors).toEqual([
      {
        policyId: 'typo',
        message: expect.stringContaining('resource.destrutive is not an attribute') as string,
      },
      {
        policyId: 'typo',
        message: expect.stringContaining('principal.teams is not an attribute') as string,
      },
    ]);
  });
});

describe('diffDecisions', () => {
  it('lists only the decisions that would change', () => {
    const samples = [
      input({ arguments: { amount: 100 } }),
      input({ arguments: { amount: 900 } }),
      input({ principal: { team: 'marketing' } }),
    ];
    const tighter = POLICIES.replace('amount > 500', 'amount > 50');
    const changes = diffDecisions(POLICIES, tighter, samples);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      index: 0,
      before: { effect: 'allow' },
      after: { effect: 'deny', matched_rule: 'no-large-refunds' },
    });
  });
});
