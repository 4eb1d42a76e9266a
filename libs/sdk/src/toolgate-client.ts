import type { TracerLike } from './telemetry/client-tracing';
import { getAdapter, type Provider } from '@toolgate/adapters';
import {
  CallFinishedEventSchema,
  routes,
  routeUrl,
  type Call,
  type CallStatus,
  type CallSummary,
  type CreateCallsRequest,
  type DowngradeReport,
  type ExportBody,
  type ExportSkippedTool,
  type ExportToolResolution,
  type PartialArgumentStates,
  type RouteDefinition,
  type RouteRequest,
} from '@toolgate/contract';
import { parseToolIR, ToolIRError, type ToolIR, type ToolResultIR } from '@toolgate/toolir';
import {
  ToolgateInvalidResponseError,
  ToolgateNetworkError,
  ToolgateSdkError,
  ToolgateTimeoutError,
} from './errors/toolgate-sdk-error';
import {
  runToolLoop,
  streamToolLoop,
  type GatewayStreamToolLoopOptions,
  type GatewayToolLoopOptions,
  type ToolLoopEvent,
  type ToolLoopResult,
} from './agent-loop';
import type { LocalToolDefinition } from './local-tools';
import { ToolSearch, type ToolSearchOptions } from './tool-search/tool-search';
import { ToolgateRuns } from './runs/runs-client';
import type { NoRegistryTools, RegistryToolTypes, RegistryTypes } from './loop/tool-types';
import { readCallEvent, type CallEvent } from './transports/call-events';
import { DeprecationNotices, type DeprecationHandler } from './transports/deprecation-notices';
import { readGatewayAnswer } from './transports/gateway-answer';
import { HttpTransport, type FetchFunction, type SleepFunction } from './transports/http-transport';
import { readEventStream } from './transports/read-event-stream';
import { DEFAULT_RETRY, sleep as defaultSleep, type RetryOptions } from './transports/retry-policy';
import type { WireResultsByProvider, WireToolByProvider } from './transports/wire-types';

/** Where the client writes what an operator should see (deprecations); `console` fits. */
export interface ToolgateLogger {
  warn(message: string, data?: Record<string, unknown>): void;
}

/** How to reach the gateway and how to behave when it misbehaves. */
export interface ToolgateOptions<TRegistry extends RegistryToolTypes = NoRegistryTools> {
  /**
   * Types of registry tools (`registryTypes<...>([...names])`): their calls in loop steps and the
   * results of `call()` are typed by tool name.
   */
  types?: RegistryTypes<TRegistry>;
  /** The gateway's origin, e.g. `https://toolgate.example.com` (the `/v1/...` paths are appended). */
  baseUrl: string;
  /** An API key, sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Who is asking (a user or tenant id), sent as `X-Toolgate-Subject` so canary bucketing is stable per subject. */
  subject?: string;
  /** Defaults to the global `fetch`. */
  fetch?: FetchFunction;
  /** Receives deprecation warnings unless `onDeprecation` is given; defaults to `console`. */
  logger?: ToolgateLogger;
  /** Called once per deprecated tool (or URL) and deprecation value. */
  onDeprecation?: DeprecationHandler;
  /** Retries of safe requests (see `RetryOptions`). */
  retry?: Partial<RetryOptions>;
  /** Budget of one HTTP attempt, body included (default 30 s); event streams have none. */
  timeoutMs?: number;
  /**
   * An OpenTelemetry tracer: each request to the gateway becomes a CLIENT span whose context is
   * sent as `traceparent`, so the gateway's spans join the app's trace. None by default.
   */
  tracer?: TracerLike;
  /** Waits between retries; injectable for tests. */
  sleep?: SleepFunction;
  /** The jitter source in [0, 1); injectable for tests. */
  random?: () => number;
}

/** Which tools to pull, and in which wire format. */
export interface ToolsQuery<TProvider extends Provider> {
  format: TProvider;
  /** Only tools carrying every one of these tags. */
  tags?: readonly string[];
  /** Only these tools. */
  names?: readonly string[];
  /** A version, a range (`^2.1`), `stable` or `canary` per tool name; wins over canary bucketing. */
  pins?: Readonly<Record<string, string>>;
  /**
   * Only the tools matching these words, best match first: the few a task needs rather than the
   * whole catalog (`toolSearch` lets the model ask for them itself).
   */
  q?: string;
  /**
   * Marks the tools for deferred loading and adds the provider's own tool search tool
   * (`openai-responses`, `anthropic` only): the model loads a definition when its search finds it.
   */
  deferLoading?: boolean;
  /** With `deferLoading`: tools sent loaded all the same, the few the model uses on most turns. */
  eager?: readonly string[];
  /**
   * Strict schemas (OpenAI and Anthropic `strict`) for every tool (`true`) or none (`false`);
   * absent, each tool as its version asks. What strict mode changed is in `downgrades`.
   */
  strict?: boolean;
  /** Tools of the selection per page (gateway default 500, at most 1000). */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  signal?: AbortSignal;
}

/** Which tool versions `toolDefinitions()` pulls. */
export interface ToolDefinitionsQuery {
  /** Per tool name: a version (`2.1.0`), a range (`^2.1`, `~2.1.3`), `stable` or `canary`. */
  pins: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** One tool version as the registry holds it: its ToolIR, with the version its pin resolved to. */
export interface ToolDefinition {
  name: string;
  toolId: string;
  /** The exact version the pin resolved to (what a lockfile records). */
  version: string;
  /** The pin it was resolved from. */
  pin: string;
  /** The version's ToolIR, checked with `parseToolIR`. */
  tool: ToolIR;
}

/** Tools in one wire format, ready for the provider request's `tools`, and how each version was chosen. */
export interface ToolExport<TProvider extends Provider> {
  format: TProvider;
  tools: Array<WireToolByProvider[TProvider]>;
  /** How each tool's version was chosen for this caller (pinned, canary or stable). */
  resolution: ExportToolResolution[];
  /**
   * Names the versions in `resolution`. `execute` and the loop send it for you when the request
   * offers tools of this export; pass it as `execute({ snapshot })` when you keep tools elsewhere.
   */
  snapshot: string;
  /** Tools left out for this caller (no stable release, past sunset, in a brownout). */
  skipped: ExportSkippedTool[];
  /** Request-level fields to spread into the provider request, e.g. `parallel_tool_calls`. */
  requestOptions: ExportBody['request_options'];
  /** What this wire format could not carry of each tool's definition. */
  downgrades: DowngradeReport;
  /** Tools in the whole selection, over every page (exported plus skipped). */
  total: number;
  /**
   * Set when the selection has more tools than this page: pass it as `cursor` for the next one.
   * Each page has its own `snapshot`; `versionsOf` works across pages.
   */
  nextCursor: string | null;
  /** The whole answer, as the contract's `ExportSchema` reads it. */
  body: ExportBody;
  /** True when the gateway answered 304 and the cached body was reused. */
  fromCache: boolean;
}

/** The model's tool calls to run through the gateway. */
export interface ExecuteOptions<TProvider extends Provider> {
  provider: TProvider;
  /** The provider's response, message or content array carrying the calls, as the provider sent it. */
  payload: unknown;
  conversationId?: string;
  /** Makes the POST safe to retry: the gateway runs each call at most once per key. */
  idempotencyKey?: string;
  /** How long the gateway may hold the request to answer synchronously (200) before answering 202. */
  waitMs?: number;
  /** Gives up following the calls' event streams after this long (default: wait; approvals can take hours). */
  followTimeoutMs?: number;
  /** Every event of the calls being followed (after a 202). */
  onEvent?: (event: CallEvent) => void;
  /**
   * The `snapshot` of the export the model was shown: each call runs the version that export
   * served, even after a release moved on (see `versionsOf`).
   */
  snapshot?: string;
  /** A version, a range, `stable` or `canary` per tool name; wins over `snapshot`. */
  pins?: Readonly<Record<string, string>>;
  /**
   * How streamed calls' arguments grew, by the model's call id (`recordPartialStates().byCall()`):
   * the gateway keeps each record with its call; a key naming no call of `payload` is a 400.
   */
  partialStates?: Readonly<Record<string, PartialArgumentStates>>;
  signal?: AbortSignal;
}

/** The routes that take a model turn's calls in a provider's format, and answer them alike. */
type CallsRoute = typeof routes.createCalls | typeof routes.createRunTurn;

/** What both call routes take in their body: the provider's payload and how to run its calls. */
type CallsBody = Omit<CreateCallsRequest, 'conversation_id'>;

/** A POST of calls: its body, and how to follow the calls after a 202. */
type SubmitCallsOptions<TProvider extends Provider> = Pick<
  ExecuteOptions<TProvider>,
  'provider' | 'payload' | 'idempotencyKey' | 'followTimeoutMs' | 'onEvent' | 'signal'
> & { body: CreateCallsRequest };

/** The body fields the two call routes share, from the options that name them. */
function callsBody(
  options: Pick<
    ExecuteOptions<Provider>,
    'provider' | 'payload' | 'waitMs' | 'snapshot' | 'pins' | 'partialStates'
  >,
): CallsBody {
  return {
    provider: options.provider,
    payload: options.payload,
    ...(options.waitMs === undefined ? {} : { wait_ms: options.waitMs }),
    ...(options.snapshot === undefined ? {} : { snapshot: options.snapshot }),
    ...(options.pins === undefined ? {} : { pins: { ...options.pins } }),
    ...(options.partialStates === undefined
      ? {}
      : { partial_states: { ...options.partialStates } }),
  };
}

/** Which versions a batch of calls runs: the export's snapshot, or pins when tools came from several. */
export type CallVersions = Pick<ExecuteOptions<Provider>, 'snapshot' | 'pins'>;

/** The export a wire tool object came from: its snapshot and the version it served per tool name. */
interface ExportedFrom {
  snapshot: string;
  versions: Readonly<Record<string, string>>;
}

/** The calls' results in the provider's wire format, ready to append to the conversation. */
export interface ExecuteResult<TProvider extends Provider> {
  results: WireResultsByProvider[TProvider];
  /** The calls as the gateway recorded them; after a 202, each with the status it finished with. */
  calls: CallSummary[];
  /** The same results as ToolResultIRs, one per call in the model's order: a failure keeps its code, data its structure. */
  toolResults: ToolResultIR[];
  /** `completed`: answered within the wait budget (200); `followed`: accepted (202) and followed to the end. */
  outcome: 'completed' | 'followed';
}

/** How a plain call runs: the version to run, and how long to wait for it. */
export interface CallOptions {
  /** A version, a range (`^2.1`), `stable` or `canary`; default: the release (the canary for this subject). */
  version?: string;
  /** The `snapshot` of an export: the call runs the version that export served (`version` wins). */
  snapshot?: string;
  /** The call's id in the ToolCallIR sent; default: a fresh `call_<uuid>`. */
  callId?: string;
  conversationId?: string;
  /** Makes the POST safe to retry: the gateway runs the call at most once per key. */
  idempotencyKey?: string;
  /** How long the gateway may hold the request to answer synchronously (200) before answering 202. */
  waitMs?: number;
  /** Gives up following the call's event stream after this long (default: wait; approvals can take hours). */
  followTimeoutMs?: number;
  /** Every event of the call while it is followed (after a 202). */
  onEvent?: (event: CallEvent) => void;
  signal?: AbortSignal;
}

/** A plain call's outcome: its ToolResultIR (`ok`, then `data` or `error`), and the call as recorded. */
export interface CallResult<TData = unknown> {
  /** `data` is of the tool's declared result type when the client has its types. */
  result: ToolResultIR & { data?: TData };
  call: CallSummary;
  /** `completed`: answered within the wait budget (200); `followed`: accepted (202) and followed to the end. */
  outcome: 'completed' | 'followed';
}

/** How a followed call ended. */
interface CallOutcome {
  status: CallStatus;
  result: ToolResultIR;
}

/** The statuses a call ends in: those of a `finished` event, and `cancelled`. */
const FINAL_STATUSES: ReadonlySet<CallStatus> = new Set<CallStatus>([
  ...CallFinishedEventSchema.shape.status.options,
  'cancelled',
]);

/** The outcome a call record holds, or undefined while the call is not final. */
function outcomeOfCall(call: Call, what: string): CallOutcome | undefined {
  if (!FINAL_STATUSES.has(call.status)) return undefined;
  if (call.result === null) {
    throw new ToolgateInvalidResponseError(`${what}: the ${call.status} call has no result`, {
      issues: ['/result: expected the ToolResultIR of a final call, got null'],
    });
  }
  return { status: call.status, result: call.result };
}

/**
 * How a POST of calls may be repeated: only an Idempotency-Key makes it safe, without one a retry
 * could run a tool twice. Both call routes read the same headers.
 */
function idempotency(key: string | undefined): {
  safeToRetry: boolean;
  headers?: Record<string, string>;
} {
  if (key === undefined) return { safeToRetry: false };
  const headers = { 'idempotency-key': key } satisfies RouteRequest<
    typeof routes.createCalls
  >['headers'];
  return { safeToRetry: true, headers };
}

/**
 * Results of a gateway that sends only the provider's format (before `tool_results`): read back
 * with the adapter, the calls taken from the payload that carried them.
 */
function readWireResults(provider: Provider, payload: unknown, results: unknown): ToolResultIR[] {
  const adapter = getAdapter(provider);
  return adapter.resultsFromWire(results, { calls: adapter.parseCalls(payload).calls });
}

function exportsUrl(query: ToolsQuery<Provider>): string {
  const { tags = [], names = [], pins = {}, eager = [] } = query;
  // Sorted so equal queries share one cache entry whatever the object's key order.
  const pin = Object.keys(pins)
    .sort()
    .map((name) => `${name}@${pins[name] ?? ''}`);
  return routeUrl(routes.exportTools, {
    query: {
      format: query.format,
      // Comma lists (the route reads them as repeated parameters too) keep long queries short.
      ...(tags.length === 0 ? {} : { tags: tags.join(',') }),
      ...(names.length === 0 ? {} : { names: names.join(',') }),
      ...(pin.length === 0 ? {} : { pin }),
      ...(query.q === undefined ? {} : { q: query.q }),
      ...(query.deferLoading === true ? { defer_loading: 'true' as const } : {}),
      ...(eager.length === 0 ? {} : { eager: eager.join(',') }),
      ...(query.strict === undefined ? {} : { strict: String(query.strict) as 'true' | 'false' }),
      ...(query.limit === undefined ? {} : { limit: query.limit }),
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    },
  });
}

/** The Toolgate client: pull tools by version in a provider's format, execute calls, run tool loops. */
/** The arguments `call()` takes for a tool: its declared type, or any object for a tool without types. */
export type CallArguments<
  TRegistry extends RegistryToolTypes,
  TName extends string,
> = TName extends keyof TRegistry
  ? TRegistry[TName]['arguments']
  : Readonly<Record<string, unknown>>;

/** What a successful `call()` of a tool holds as `result.data`. */
export type CallData<
  TRegistry extends RegistryToolTypes,
  TName extends string,
> = TName extends keyof TRegistry ? TRegistry[TName]['result'] : unknown;

export class Toolgate<TRegistry extends RegistryToolTypes = NoRegistryTools> {
  /** The registry tools this client knows the types of (`options.types`). */
  readonly typedToolNames: ReadonlySet<string>;
  private readonly transport: HttpTransport;
  private readonly deprecations: DeprecationNotices;
  private readonly exported = new WeakMap<object, ExportedFrom>();
  private readonly exportCache = new Map<
    string,
    { etag: string; exported: ToolExport<Provider> }
  >();
  private readonly baseUrl: string;
  /** Durable runs (`/v1/runs`): create, read, post turns and plans, decide, cancel, compensate. */
  readonly runs: ToolgateRuns;

  constructor(options: ToolgateOptions<TRegistry>) {
    this.typedToolNames = options.types?.names ?? new Set();
    if (options.baseUrl === '' || options.apiKey === '') {
      throw new ToolgateSdkError('invalid_options', 'Toolgate needs a baseUrl and an apiKey');
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const logger = options.logger ?? console;
    this.deprecations = new DeprecationNotices(
      options.onDeprecation ??
        ((notice) =>
          logger.warn(
            `Toolgate: ${notice.tool === undefined ? notice.url : `tool ${notice.tool}@${notice.version ?? '?'}`} is deprecated` +
              `${notice.sunset === undefined ? '' : `, sunset ${notice.sunset}`}` +
              `${notice.successor === undefined ? '' : `, successor ${notice.successor}`}`,
            { ...notice },
          )),
    );
    this.transport = new HttpTransport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      subject: options.subject,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      retry: { ...DEFAULT_RETRY, ...options.retry },
      timeoutMs: options.timeoutMs ?? 30_000,
      sleep: options.sleep ?? defaultSleep,
      random: options.random ?? Math.random,
      tracer: options.tracer,
    });
    this.runs = new ToolgateRuns({
      transport: this.transport,
      submitTurn: (path, turn, turnOptions) =>
        this.submitCalls(routes.createRunTurn, path, {
          ...turn,
          ...turnOptions,
          body: callsBody(turn),
        }),
      followCalls: async (callIds, followOptions) => {
        await this.followCalls(callIds, followOptions);
      },
    });
  }

  /**
   * Pulls tools in `query.format` (`GET /v1/exports`), revalidating a cached answer with its ETag
   * (a 304 reuses the cached body) and surfacing each deprecation once.
   */
  async tools<TProvider extends Provider>(
    query: ToolsQuery<TProvider>,
  ): Promise<ToolExport<TProvider>> {
    const route = routes.exportTools;
    const path = exportsUrl(query);
    const what = `GET ${route.path}`;
    const cached = this.exportCache.get(path);
    const { answer, headers } = await this.transport.send(
      {
        route,
        path,
        safeToRetry: true,
        signal: query.signal,
        ...(cached === undefined
          ? {}
          : {
              headers: {
                'if-none-match': cached.etag,
              } satisfies RouteRequest<typeof route>['headers'],
            }),
      },
      async (response) => ({
        answer: await readGatewayAnswer(route, response, what),
        headers: response.headers,
      }),
    );
    const url = `${this.baseUrl}${path}`;
    if (answer.status === 304) {
      if (cached === undefined)
        throw new ToolgateInvalidResponseError(
          `${what} answered 304 to a request without If-None-Match`,
        );
      this.deprecations.observe({ url, headers, resolution: cached.exported.resolution });
      // A copy: the caller may change what it gets (add tools, edit descriptions) without touching
      // the cache. The cache key holds the format, so the entry is of TProvider.
      return this.remember({
        ...structuredClone(cached.exported),
        fromCache: true,
      } as ToolExport<TProvider>);
    }
    const body = answer.body;
    if (body.format !== query.format) {
      throw new ToolgateInvalidResponseError(
        `${what} answered format ${body.format} to a request for ${query.format}`,
        { issues: [`/format: expected ${query.format}, got ${body.format}`] },
      );
    }
    this.deprecations.observe({ url, headers, resolution: body.resolution });
    const fresh: ToolExport<TProvider> = {
      format: query.format,
      // The contract types tools as provider objects; the gateway wrote them with the adapter of
      // the format just checked, and the provider validates them when they are sent.
      tools: body.tools as Array<WireToolByProvider[TProvider]>,
      resolution: body.resolution,
      snapshot: body.snapshot,
      skipped: body.skipped,
      requestOptions: body.request_options,
      downgrades: body.downgrades,
      total: body.total,
      nextCursor: body.next_cursor,
      body,
      fromCache: false,
    };
    const etag = headers.get('etag');
    if (etag !== null) this.exportCache.set(path, { etag, exported: structuredClone(fresh) });
    return this.remember(fresh);
  }

  /**
   * The ToolIR of each pinned tool, at the version the gateway resolves its pin to for this
   * caller (`GET /v1/exports` with the pins, then `GET /v1/tools/{id}/versions/{version}`), sorted
   * by name: for `implementTool`, and for `toolgate types`. A name the catalog does not serve
   * throws `invalid_options` naming it; a pin no version matches, `ToolgateApiError`
   * `version_not_found`.
   */
  async toolDefinitions(query: ToolDefinitionsQuery): Promise<ToolDefinition[]> {
    const names = Object.keys(query.pins).sort();
    if (names.length === 0) return [];
    const exported = await this.tools({
      format: 'mcp',
      names,
      pins: query.pins,
      ...(query.signal === undefined ? {} : { signal: query.signal }),
    });
    const resolved = new Map(exported.resolution.map((entry) => [entry.name, entry]));
    const definitions: ToolDefinition[] = [];
    for (const name of names) {
      const resolution = resolved.get(name);
      if (resolution === undefined) {
        const skipped = exported.skipped.find((entry) => entry.name === name);
        throw new ToolgateSdkError(
          'invalid_options',
          skipped === undefined
            ? `The catalog of this key has no tool named "${name}".`
            : `The gateway does not serve "${name}" (${skipped.reason}).`,
        );
      }
      const route = routes.getToolVersion;
      const path = routeUrl(route, {
        params: { toolId: resolution.tool_id, version: resolution.version },
      });
      const what = `GET ${path}`;
      const answer = await this.transport.send(
        { route, path, safeToRetry: true, signal: query.signal },
        (response) => readGatewayAnswer(route, response, what),
      );
      let tool: ToolIR;
      try {
        tool = parseToolIR(answer.body.ir);
      } catch (error) {
        if (!(error instanceof ToolIRError)) throw error;
        throw new ToolgateInvalidResponseError(`${what} answered a ToolIR that does not parse`, {
          issues: error.issues.map((issue) => `/ir${issue.path}: ${issue.message}`),
        });
      }
      definitions.push({
        name,
        toolId: resolution.tool_id,
        version: resolution.version,
        pin: query.pins[name] ?? '',
        tool,
      });
    }
    return definitions;
  }

  /**
   * A tool search tool for this client's catalog: give the model `definition` instead of every
   * tool, answer its searches with `answer(response)`, and add the found tools to the next request.
   */
  toolSearch<TProvider extends Provider>(
    options: ToolSearchOptions<TProvider>,
  ): ToolSearch<TProvider> {
    return new ToolSearch(this, options);
  }

  /**
   * The versions calls made with `tools` must run: the snapshot of the export they came from, or,
   * when they came from several exports, a pin per tool to the version each export served. Tools
   * this client did not export (local ones, copies) add nothing.
   */
  versionsOf(tools: readonly unknown[]): CallVersions {
    const sources = tools.flatMap((tool) => {
      const from = typeof tool === 'object' && tool !== null ? this.exported.get(tool) : undefined;
      return from === undefined ? [] : [from];
    });
    const snapshots = new Set(sources.map((source) => source.snapshot));
    const [only] = snapshots;
    if (only === undefined) return {};
    if (snapshots.size === 1) return { snapshot: only };
    return {
      pins: Object.assign({}, ...sources.map((source) => source.versions)) as Record<
        string,
        string
      >,
    };
  }

  // Each tool object handed out is remembered with its export, so the loop can find the versions
  // from the request's own `tools` without the app passing them along.
  private remember<TProvider extends Provider>(
    exported: ToolExport<TProvider>,
  ): ToolExport<TProvider> {
    // Per export, not per tool: one Gemini tool object declares every function of the export.
    const from: ExportedFrom = {
      snapshot: exported.snapshot,
      versions: Object.fromEntries(exported.resolution.map((entry) => [entry.name, entry.version])),
    };
    for (const tool of exported.tools) {
      if (typeof tool === 'object' && tool !== null) this.exported.set(tool, from);
    }
    return exported;
  }

  /**
   * Hands the model's tool calls to the gateway (`POST /v1/calls`) and returns the results in the provider's
   * format: at once on 200, or after following every call's event stream to its end on 202.
   */
  async execute<TProvider extends Provider>(
    options: ExecuteOptions<TProvider>,
  ): Promise<ExecuteResult<TProvider>> {
    const route = routes.createCalls;
    return this.submitCalls(route, routeUrl(route), {
      ...options,
      body: {
        ...callsBody(options),
        ...(options.conversationId === undefined
          ? {}
          : { conversation_id: options.conversationId }),
      },
    });
  }

  /**
   * Posts a model turn's calls to one of the routes that take them (`POST /v1/calls`, a run's
   * `POST /v1/runs/{runId}/turns`): both answer alike, at once (200) or by call ids to follow (202).
   */
  private async submitCalls<TProvider extends Provider>(
    route: CallsRoute,
    path: string,
    options: SubmitCallsOptions<TProvider>,
  ): Promise<ExecuteResult<TProvider>> {
    const what = `POST ${path}`;
    const answer = await this.transport.send(
      {
        route,
        path,
        body: options.body,
        signal: options.signal,
        ...idempotency(options.idempotencyKey),
      },
      (response) => readGatewayAnswer(route, response, what),
    );
    if (answer.status === 202) {
      const { call_ids: callIds, calls } = answer.body;
      const outcomes = await this.followCalls(callIds, options);
      const toolResults = outcomes.map((outcome) => outcome.result);
      const statuses = new Map(callIds.map((id, index) => [id, outcomes[index]?.status]));
      const adapter = getAdapter(options.provider);
      // The gateway read these calls from the payload already; they say which answer free text.
      const { calls: payloadCalls } = adapter.parseCalls(options.payload);
      return {
        results: adapter.resultsToWire(toolResults, {
          calls: payloadCalls,
        }) as WireResultsByProvider[TProvider],
        calls: calls.map((call) => ({ ...call, status: statuses.get(call.id) ?? call.status })),
        toolResults,
        outcome: 'followed',
      };
    }
    // The contract types results as provider objects; the gateway wrote them with the adapter of
    // `provider`, the format this request named.
    const results = answer.body.results as WireResultsByProvider[TProvider];
    return {
      results,
      calls: answer.body.calls,
      toolResults:
        answer.body.tool_results ?? readWireResults(options.provider, options.payload, results),
      outcome: 'completed',
    };
  }

  /**
   * Runs one tool by name with the given arguments (`POST /v1/calls/ir`), as the registry holds it:
   * the version `options.version` names, else the one `options.snapshot` served, else the release.
   * A tool's failure is a result (`result.ok === false`), not a throw.
   */
  async call<TName extends string>(
    name: TName,
    args: CallArguments<TRegistry, TName>,
    options: CallOptions = {},
  ): Promise<CallResult<CallData<TRegistry, TName>>> {
    // The registry's declared types (`options.types`) are the caller's statement of what the tool
    // returns; the SDK reads results as ToolResultIRs and does not check data against them.
    type Typed = CallResult<CallData<TRegistry, TName>>['result'];
    const route = routes.createIRCalls;
    const what = `POST ${route.path}`;
    const body: RouteRequest<typeof route>['body'] = [
      {
        id: options.callId ?? `call_${globalThis.crypto.randomUUID()}`,
        name,
        // Typed per tool when the client has the registry's types; an object either way.
        arguments: { ...(args as Readonly<Record<string, unknown>>) },
        ...(options.version === undefined ? {} : { tool_version: options.version }),
      },
    ];
    const answer = await this.transport.send(
      {
        route,
        path: routeUrl(route, {
          query: {
            ...(options.waitMs === undefined ? {} : { wait_ms: options.waitMs }),
            ...(options.conversationId === undefined
              ? {}
              : { conversation_id: options.conversationId }),
            ...(options.snapshot === undefined ? {} : { snapshot: options.snapshot }),
          },
        }),
        body,
        signal: options.signal,
        ...idempotency(options.idempotencyKey),
      },
      (response) => readGatewayAnswer(route, response, what),
    );
    const [call] = answer.body.calls;
    if (call === undefined) {
      throw new ToolgateInvalidResponseError(`${what} answered without the call`, {
        issues: ['/calls: expected one call summary, got none'],
      });
    }
    if (answer.status === 202) {
      const [followed] = await this.followCalls(answer.body.call_ids, options);
      if (followed === undefined) {
        throw new ToolgateInvalidResponseError(`${what} accepted the call without its id`, {
          issues: ['/call_ids: expected one call id, got none'],
        });
      }
      return {
        result: followed.result as Typed,
        call: { ...call, status: followed.status },
        outcome: 'followed',
      };
    }
    const [result] = answer.body.results;
    if (result === undefined) {
      throw new ToolgateInvalidResponseError(`${what} answered without the call's result`, {
        issues: ['/results: expected one ToolResultIR, got none'],
      });
    }
    return { result: result as Typed, call, outcome: 'completed' };
  }

  /**
   * Runs a model <-> tools loop whose calls the gateway executes (unless `execute` names a local executor);
   * see `runToolLoop`.
   */
  runToolLoop<
    TRequest extends object,
    const TTools extends readonly LocalToolDefinition[] = readonly [],
  >(
    options: GatewayToolLoopOptions<TRequest, TTools, TRegistry>,
  ): Promise<ToolLoopResult<TRequest, TTools, TRegistry>> {
    return runToolLoop({ ...options, gateway: this });
  }

  /**
   * `runToolLoop` on the provider's streaming API: yields text and partial tool calls as they
   * arrive, each step's results, and the result last; see `streamToolLoop`.
   */
  streamToolLoop<
    TRequest extends object,
    const TTools extends readonly LocalToolDefinition[] = readonly [],
  >(
    options: GatewayStreamToolLoopOptions<TRequest, TTools, TRegistry>,
  ): AsyncGenerator<ToolLoopEvent<TRequest, TTools, TRegistry>, void, undefined> {
    return streamToolLoop({ ...options, gateway: this });
  }

  private async followCalls(
    callIds: readonly string[],
    options: Pick<CallOptions, 'followTimeoutMs' | 'onEvent' | 'signal'>,
  ): Promise<CallOutcome[]> {
    const deadline =
      options.followTimeoutMs === undefined
        ? undefined
        : AbortSignal.timeout(options.followTimeoutMs);
    // One failed stream stops the others: their results could not be returned anyway.
    const siblings = new AbortController();
    const signals = [options.signal, deadline, siblings.signal].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    );
    const signal = AbortSignal.any(signals);
    try {
      return await Promise.all(
        callIds.map((callId) => this.followCall({ callId, signal, onEvent: options.onEvent })),
      );
    } catch (error) {
      siblings.abort();
      if (deadline?.aborted === true && options.followTimeoutMs !== undefined) {
        // The ids let the caller look the calls up later: they keep running in the gateway.
        throw new ToolgateTimeoutError(
          `the calls ${callIds.join(', ')} did not finish within ${options.followTimeoutMs} ms; they go on in the gateway (GET /v1/calls/{callId})`,
          { timeoutMs: options.followTimeoutMs, callIds, cause: error },
        );
      }
      throw error;
    }
  }

  /**
   * Follows one call's event stream to its end: a `finished` event, or a `state` (always first)
   * that is already final, carries the result; after `cancelled` the result is in the call record.
   */
  private async followCall(input: {
    callId: string;
    signal: AbortSignal;
    onEvent: ((event: CallEvent) => void) | undefined;
  }): Promise<CallOutcome> {
    const { callId, signal, onEvent } = input;
    const route = routes.streamCallEvents;
    const path = routeUrl(route, { params: { callId } });
    const what = `GET ${path}`;
    // Mutated between attempts: a reconnect resumes after the last event seen (SSE `Last-Event-ID`).
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    const ended = await this.transport.send(
      { route, path, headers, safeToRetry: true, signal, timeoutMs: null },
      async (response): Promise<CallOutcome | 'cancelled'> => {
        const contentType = response.headers.get('content-type') ?? '';
        const answers: RouteDefinition['responses'] = route.responses;
        if (answers[response.status] === undefined) {
          throw new ToolgateInvalidResponseError(
            `${what} answered ${response.status}, which does not match the contract`,
            { issues: [`status ${response.status} is not an answer of ${route.operationId}`] },
          );
        }
        if (!contentType.includes('text/event-stream') || response.body === null) {
          throw new ToolgateInvalidResponseError(
            `${what} did not answer with text/event-stream (got ${contentType || 'no body'})`,
          );
        }
        for await (const message of readEventStream(response.body)) {
          if (message.id !== undefined) headers['last-event-id'] = message.id;
          const event = readCallEvent(callId, message, what);
          onEvent?.(event);
          if (event.type === 'finished') {
            return { status: event.data.status, result: event.data.result };
          }
          if (event.type === 'state') {
            const outcome = outcomeOfCall(event.data, `${what} state event`);
            if (outcome !== undefined) return outcome;
          }
          if (event.type === 'cancelled') return 'cancelled';
        }
        throw new ToolgateNetworkError(`${what} ended before the call finished`);
      },
    );
    return ended === 'cancelled' ? this.recordedOutcome(callId, signal) : ended;
  }

  /** The outcome stored in a final call's record (`GET /v1/calls/{callId}`). */
  private async recordedOutcome(callId: string, signal: AbortSignal): Promise<CallOutcome> {
    const route = routes.getCall;
    const path = routeUrl(route, { params: { callId } });
    const what = `GET ${path}`;
    const answer = await this.transport.send(
      { route, path, safeToRetry: true, signal },
      (response) => readGatewayAnswer(route, response, what),
    );
    const outcome = outcomeOfCall(answer.body, what);
    if (outcome === undefined) {
      throw new ToolgateInvalidResponseError(
        `${what}: the call is ${answer.body.status} after its stream said it was cancelled`,
        { issues: [`/status: expected a final status, got ${answer.body.status}`] },
      );
    }
    return outcome;
  }
}
