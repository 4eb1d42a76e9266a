import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import type { DetailedError, PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';

/** One problem in a policy text, with its position when the parser knows it. */
export interface PolicyValidationError {
  /** The policy's id (its `@id` annotation, else `policy<N>` by position) when the problem is in one policy. */
  policyId?: string;
  message: string;
  /** 1-based line and column of the problem. */
  line?: number;
  column?: number;
  /** 0-based character offset of the problem. */
  offset?: number;
}

/** The outcome of `validatePolicies`. */
export interface PolicyValidationResult {
  ok: boolean;
  errors: PolicyValidationError[];
}

/** One policy of a set, with what the engine reads from its annotations. */
export interface ParsedPolicy {
  id: string;
  text: string;
  effect: 'permit' | 'forbid';
  /** The `@reason("...")` annotation, shown to the model on deny and to the approver. */
  reason?: string;
  /** True for a permit annotated `@approval("required")`. */
  requires_approval: boolean;
}

/** The attributes the engine gives each entity; anything else is a typo that would make a policy never match. */
const KNOWN_ATTRIBUTES: Record<'principal' | 'resource' | 'context', readonly string[]> = {
  principal: [
    'team',
    'key',
    'scopes',
    'oauth_scopes',
    'oauth_issuer',
    'oauth_subject',
    'oauth_client_id',
  ],
  resource: [
    'name',
    'version',
    'tags',
    'readonly',
    'destructive',
    'idempotent',
    'open_world',
    'requires_approval',
  ],
  context: ['arguments'],
};

/** Finds `principal.x`, `resource.x` and `context.x` (and `has x`) naming attributes the engine never sets. */
function unknownAttributes(node: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) unknownAttributes(item, found);
    return found;
  }
  if (node === null || typeof node !== 'object') return found;
  const record = node as Record<string, unknown>;
  for (const operator of ['.', 'has']) {
    const access = record[operator] as { left?: { Var?: unknown }; attr?: unknown } | undefined;
    const variable = access?.left?.Var;
    if (
      typeof variable === 'string' &&
      variable in KNOWN_ATTRIBUTES &&
      typeof access?.attr === 'string'
    ) {
      const known = KNOWN_ATTRIBUTES[variable as keyof typeof KNOWN_ATTRIBUTES];
      if (!known.includes(access.attr)) found.add(`${variable}.${access.attr}`);
    }
  }
  for (const value of Object.values(record)) unknownAttributes(value, found);
  return found;
}

function attributeErrors(id: string, policy: PolicyJson): PolicyValidationError[] {
  return [...unknownAttributes(policy.conditions, new Set())].map((access) => {
    const [variable = ''] = access.split('.');
    const known = KNOWN_ATTRIBUTES[variable as keyof typeof KNOWN_ATTRIBUTES].join(', ');
    return {
      policyId: id,
      message: `${access} is not an attribute the gateway sets (known: ${known})`,
    };
  });
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

function describe(text: string, error: DetailedError): PolicyValidationError[] {
  const location = error.sourceLocations?.[0];
  const label = location?.label ? `: ${location.label}` : '';
  const own: PolicyValidationError = {
    message: `${error.message}${label}`,
    ...(location === undefined
      ? {}
      : { offset: location.start, ...position(text, location.start) }),
  };
  return [own, ...(error.related ?? []).flatMap((related) => describe(text, related))];
}

/** Parses a policy set into policies with stable ids and their annotations, or lists every problem. */
export function parsePolicyText(
  text: string,
): { ok: true; policies: ParsedPolicy[] } | { ok: false; errors: PolicyValidationError[] } {
  const check = cedar.checkParsePolicySet({ staticPolicies: text });
  if (check.type === 'failure')
    return { ok: false, errors: check.errors.flatMap((error) => describe(text, error)) };
  const parts = cedar.policySetTextToParts(text);
  if (parts.type === 'failure')
    return { ok: false, errors: parts.errors.flatMap((error) => describe(text, error)) };
  if (parts.policy_templates.length > 0) {
    return {
      ok: false,
      errors: [{ message: 'policy templates are not supported; write static policies' }],
    };
  }
  const errors: PolicyValidationError[] = [];
  const policies: ParsedPolicy[] = [];
  const seen = new Set<string>();
  parts.policies.forEach((policyText, index) => {
    const json = cedar.policyToJson(policyText);
    if (json.type === 'failure') {
      errors.push(
        ...json.errors
          .flatMap((error) => describe(policyText, error))
          .map((error) => ({ ...error, policyId: `policy${index}` })),
      );
      return;
    }
    const annotations = json.json.annotations ?? {};
    const id = annotations['id'] ?? `policy${index}`;
    if (seen.has(id)) errors.push({ policyId: id, message: `duplicate policy id "${id}"` });
    seen.add(id);
    const approval = annotations['approval'];
    if (approval !== undefined && approval !== 'required') {
      errors.push({ policyId: id, message: `@approval must be "required", got "${approval}"` });
    }
    if (approval !== undefined && json.json.effect === 'forbid') {
      errors.push({
        policyId: id,
        message: '@approval belongs on a permit policy; a forbid always denies',
      });
    }
    errors.push(...attributeErrors(id, json.json));
    const reason = annotations['reason'];
    policies.push({
      id,
      text: policyText,
      effect: json.json.effect,
      ...(reason === undefined ? {} : { reason }),
      requires_approval: approval === 'required',
    });
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, policies };
}

/** Validates a policy text before it is saved: Cedar parse errors with positions, and Toolgate's annotation rules. */
export function validatePolicies(text: string): PolicyValidationResult {
  const parsed = parsePolicyText(text);
  return parsed.ok ? { ok: true, errors: [] } : { ok: false, errors: parsed.errors };
}
