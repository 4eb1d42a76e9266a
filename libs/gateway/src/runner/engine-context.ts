import type { Attributes, Tracer } from '@opentelemetry/api';
import {
  ExecutorRegistry,
  StoredApprovalGate,
  createHttpExecutor,
  createMcpExecutor,
} from '@toolgate/engine';
import type {
  ApprovalGate,
  ApprovalStore,
  BuiltinExecutor,
  EngineLogger,
  EventSink,
  ExecutionContext,
  McpClientRelay,
  PolicyEngine,
  RateLimiter,
  ResultStore,
  SecretResolver,
  TraceContentOptions,
  ToolResolver,
  ResultCache,
} from '@toolgate/engine';
import type { ToolIR } from '@toolgate/toolir';
import type { PolicyPrincipal } from '@toolgate/engine';
import type { GatewayEgress } from '../egress/gateway-egress';

/** A host's long-lived engine ports, shared by every call it executes. */
export interface EngineDeps {
  executors: ExecutorRegistry;
  /** Shared across workers (Redis) so a tool's limit holds for the whole fleet. */
  rateLimiter?: RateLimiter;
  /** Without one, calls that need approval are denied (the engine fails closed). */
  approvals?: ApprovalGate;
  /** Without one, every call is allowed. */
  policy?: PolicyEngine;
  results?: ResultStore;
  /** Finds fallback tools (and other versions); the call's own tool version comes from its record. */
  resolveTool?: ToolResolver;
  tracer?: Tracer;
  /** Whether calls put their content on their spans (TOOLGATE_TRACE_CONTENT); off when absent. */
  traceContent?: TraceContentOptions;
  logger?: EngineLogger;
  events?: EventSink;
  /** How long a call may wait for rate-limit capacity before it fails with `rate_limited`. */
  maxRateLimitWaitMs?: number;
  /** The secrets of the team a call runs for (registryContextFactory sets it per call). */
  secrets?: SecretResolver;
  /** Answers calls of versions that declare a cache (Redis on the real stack, memory embedded). */
  resultCache?: ResultCache;
  /** The release generation of a cached tool, for its cache key (registryContextFactory sets it per call). */
  cacheGeneration?: (tool: ToolIR) => Promise<string>;
}

/** What one call adds to the shared ports: its tool version, its caller and its cancellation. */
export interface CallScope {
  tool: ToolIR;
  caller: PolicyPrincipal;
  /** The person or key that made the call, when the call store knows it. */
  actor?: string;
  signal?: AbortSignal;
  /** The way back to the MCP client that made the call, when it has one. */
  clientRelay?: McpClientRelay;
  /** What the call's spans say about it (tool, team, key, conversation, provider). */
  traceAttributes?: Attributes;
  /** `refresh` when the caller asked for a fresh answer (`Cache-Control: no-cache`). */
  cacheMode?: 'use' | 'refresh';
  /** The resource version the write expects (the one its run last saw). */
  expectedVersion?: string;
}

/** Builds an engine context for one call from its scope. */
export type CreateEngineContext = (scope: CallScope) => ExecutionContext;

/** Builds the engine's context for one call: the recorded tool version answers for its own name, fallbacks go to `resolveTool`. */
export function createEngineContext(deps: EngineDeps, scope: CallScope): ExecutionContext {
  const { tool } = scope;
  const resolveTool: ToolResolver = (name, version) => {
    if (name === tool.name && (version === undefined || version === tool.version))
      return Promise.resolve(tool);
    return deps.resolveTool?.(name, version) ?? Promise.resolve(undefined);
  };
  const context: ExecutionContext = {
    resolveTool,
    executors: deps.executors,
    caller: scope.caller,
  };
  if (deps.rateLimiter !== undefined) context.rateLimiter = deps.rateLimiter;
  if (deps.approvals !== undefined) context.approvals = deps.approvals;
  if (deps.policy !== undefined) context.policy = deps.policy;
  if (deps.results !== undefined) context.results = deps.results;
  if (deps.tracer !== undefined) context.tracer = deps.tracer;
  if (deps.traceContent !== undefined) context.traceContent = deps.traceContent;
  if (deps.logger !== undefined) context.logger = deps.logger;
  if (deps.events !== undefined) context.events = deps.events;
  if (deps.maxRateLimitWaitMs !== undefined) context.maxRateLimitWaitMs = deps.maxRateLimitWaitMs;
  if (deps.secrets !== undefined) context.secrets = deps.secrets;
  if (deps.resultCache !== undefined) context.resultCache = deps.resultCache;
  if (deps.cacheGeneration !== undefined) context.cacheGeneration = deps.cacheGeneration;
  if (scope.cacheMode !== undefined) context.cacheMode = scope.cacheMode;
  if (scope.expectedVersion !== undefined) context.expectedVersion = scope.expectedVersion;
  if (scope.signal !== undefined) context.signal = scope.signal;
  if (scope.clientRelay !== undefined) context.clientRelay = scope.clientRelay;
  if (scope.traceAttributes !== undefined) context.traceAttributes = scope.traceAttributes;
  return context;
}

/** What a host adds to the engine's ports for registry calls: the catalog and the approvals table. */
export interface RegistryPorts {
  /** Policies and fallback tools, by the team a call runs for. */
  catalog: {
    policyEngineFor(teamId: string): PolicyEngine;
    resolveTool(input: {
      teamId: string;
      name: string;
      version: string | undefined;
    }): Promise<ToolIR | undefined>;
    /** The release generation of the tool the team calls by this name (stable, canary, share). */
    releaseGeneration?(input: { teamId: string; name: string }): Promise<string>;
  };
  approvals: ApprovalStore;
  approvalTtlMs: number;
  /** The secret store: each call resolves `{secret}` references among its own team's secrets. */
  secrets?: { forTeam(teamId: string): SecretResolver } | undefined;
}

/**
 * The per-call context of registry calls, the same in every host: the team's policy and the
 * team's view of fallback tools come from the catalog, approvals from the approvals table, secrets
 * from the team's own secrets.
 */
export function registryContextFactory(
  deps: EngineDeps,
  registry: RegistryPorts,
): CreateEngineContext {
  return (scope) => {
    const teamId = scope.caller.team;
    return createEngineContext(
      {
        ...deps,
        approvals: new StoredApprovalGate(registry.approvals, {
          teamId,
          requestedBy: scope.actor ?? scope.caller.key_id,
          ttlMs: registry.approvalTtlMs,
        }),
        policy: registry.catalog.policyEngineFor(teamId),
        resolveTool: (name, version) => registry.catalog.resolveTool({ teamId, name, version }),
        ...(registry.catalog.releaseGeneration === undefined
          ? {}
          : {
              cacheGeneration: (tool: ToolIR) =>
                registry.catalog.releaseGeneration?.({ teamId, name: tool.name }) ??
                Promise.resolve('none'),
            }),
        ...(registry.secrets === undefined ? {} : { secrets: registry.secrets.forTeam(teamId) }),
      },
      scope,
    );
  };
}

/**
 * The executors every host runs calls with: its builtin tools, HTTP and MCP, with its secrets, and
 * every upstream connection through its egress policy (required, so no host can forget it).
 */
export function createGatewayExecutors(input: {
  builtins: BuiltinExecutor;
  secrets?: SecretResolver | undefined;
  egress: GatewayEgress;
}): ExecutorRegistry {
  const secrets = input.secrets === undefined ? {} : { secrets: input.secrets };
  return new ExecutorRegistry({
    builtin: input.builtins,
    http: createHttpExecutor({ ...secrets, dispatcher: input.egress.dispatcher }),
    mcp: createMcpExecutor({ ...secrets, fetch: input.egress.fetch }),
  });
}
