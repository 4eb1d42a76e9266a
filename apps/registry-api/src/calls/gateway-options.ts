import type { BuiltinExecutor, SecretResolver, TraceContentOptions } from '@toolgate/engine';
import type { GatewayEgress } from '@toolgate/gateway';

/** Nest injection token of the gateway's `GatewayOptions`. */
export const GATEWAY_OPTIONS = Symbol('toolgate.gateway-options');

/** How the gateway executes calls in this process; set once at app creation. */
export interface GatewayOptions {
  /** Handlers of `builtin` tools, registered in code (`createApp({ builtins })`). */
  builtins: BuiltinExecutor;
  /** Resolves `{secret: NAME}` headers of http and mcp tools; none by default. */
  secrets?: SecretResolver | undefined;
  /** Where tools and imports may connect: every upstream request of this process goes through it. */
  egress: GatewayEgress;
  /** How long an approval request stays open before the call fails with `approval_expired`. */
  approvalTtlMs: number;
  /** Whether calls put their content on their spans (TOOLGATE_TRACE_CONTENT). */
  traceContent: TraceContentOptions;
  /** Default and ceiling of `wait_ms` on POST /v1/calls. */
  defaultWaitMs: number;
  maxWaitMs: number;
}

export const DEFAULT_APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;
