import {
  createEgressDispatcher,
  createEgressFetch,
  egressPolicyFrom,
  EgressConfigError,
  parseEgressAllow,
  type EgressPolicy,
} from '@toolgate/engine';
import type { Dispatcher } from 'undici';
import { z } from 'zod';

/**
 * How a host's outbound connections on a team's behalf are made: every tool call and every import
 * that reaches an upstream goes through this one dispatcher, so the egress policy is checked on the
 * address actually connected to, whichever path opened the connection.
 */
export interface GatewayEgress {
  readonly policy: EgressPolicy;
  /** For undici requests (the http executor). */
  readonly dispatcher: Dispatcher;
  /** For the MCP client transport (the mcp executor, MCP server imports); follows redirects through the dispatcher. */
  readonly fetch: typeof fetch;
}

export function createGatewayEgress(policy: EgressPolicy): GatewayEgress {
  const dispatcher = createEgressDispatcher(policy);
  return { policy, dispatcher, fetch: createEgressFetch(dispatcher) };
}

/**
 * The policy of a host from its settings: a real deployment (on Postgres) refuses loopback and
 * private addresses unless TOOLGATE_EGRESS_ALLOW lists them; the embedded default (PGlite) lets a
 * newcomer point a tool at a local service. Link-local and metadata addresses are refused in both.
 */
export function gatewayEgressFromSettings(input: {
  embedded: boolean;
  allow: string | undefined;
}): GatewayEgress {
  return createGatewayEgress(egressPolicyFrom(input));
}

/** TOOLGATE_EGRESS_ALLOW as a config field: an unusable entry fails the start, naming it. */
export const EgressAllowSetting = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value))
  .superRefine((value, context) => {
    try {
      parseEgressAllow(value);
    } catch (error) {
      if (!(error instanceof EgressConfigError)) throw error;
      context.addIssue({ code: 'custom', message: error.message });
    }
  });
