import { getAdapter, type Provider } from '@toolgate/adapters';
import type { ToolResultIR } from '@toolgate/toolir';
import {
  ToolgateInvalidResponseError,
  ToolgateNetworkError,
  ToolgateSdkError,
  ToolgateTimeoutError,
} from './errors/toolgate-sdk-error';
import { runToolLoop, type GatewayToolLoopOptions, type ToolLoopResult } from './agent-loop';
import { DeprecationNotices, type DeprecationHandler } from './transports/deprecation-notices';
import {
  CallFinishedDataSchema,
  CallsAcceptedResponseSchema,
  CallsCompletedResponseSchema,
  ExportsResponseSchema,
  parseResponse,
  type CallRecord,
  type CreateCallsRequest,
  type ExportsResponse,
  type SkippedTool,
  type ToolResolution,
} from './transports/gateway-contract';
import { HttpTransport, type FetchFunction, type SleepFunction } from './transports/http-transport';
import { readEventStream } from './transports/read-event-stream';
import { DEFAULT_RETRY, sleep as defaultSleep, type RetryOptions } from './transports/retry-policy';
import type { WireResultsByProvider, WireToolByProvider } from './transports/wire-types';

/** Where the client writes what an operator should see (deprecations); `console` fits. */
export interface ToolgateLogger {
  warn(message: string, data?: Record<string, unknown>): void;
}

/** How to reach the gateway and how to behave when it misbehaves. */
export interface ToolgateOptions {
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
  signal?: AbortSignal;
}

/** Tools in one wire format, ready for the provider request's `tools`, and how each version was chosen. */
export interface ToolExport<TProvider extends Provider> {
  format: TProvider;
  tools: Array<WireToolByProvider[TProvider]>;
  /** How each tool's version was chosen for this caller (pinned, canary or stable). */
  resolution: ToolResolution[];
  /** Tools left out for this caller (no stable release, past sunset, in a brownout). */
  skipped: SkippedTool[];
  /** Request-level fields to spread into the provider request, e.g. `parallel_tool_calls`. */
  requestOptions: Record<string, unknown>;
  /** The adapters' report of what this wire format could not carry, as sent. */
  downgrades: unknown;
  /** The whole response body (unknown fields included). */
  body: ExportsResponse;
  /** True when the gateway answered 304 and the cached body was reused. */
  fromCache: boolean;
}

/** A progress event of a running call, from `GET /v1/calls/:id/events`. */
export interface CallEvent {
  callId: string;
  /** `queued`, `started`, `progress`, `retry`, `awaiting_approval`, `finished`, or a newer event name. */
  type: string;
  data: unknown;
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
  /** Every progress event of the calls being followed. */
  onEvent?: (event: CallEvent) => void;
  signal?: AbortSignal;
}

/** The calls' results in the provider's wire format, ready to append to the conversation. */
export interface ExecuteResult<TProvider extends Provider> {
  results: WireResultsByProvider[TProvider];
  /** The gateway's call records (200), or the followed call ids (202). */
  /** The calls as the gateway recorded them; after a 202 only their ids are known. */
  calls: Array<Pick<CallRecord, 'id'> & Partial<CallRecord>>;
  /** The results as ToolResultIRs, when the gateway sent them that way (the 202 path). */
  toolResults: ToolResultIR[] | undefined;
  /** `completed`: answered within the wait budget (200); `followed`: accepted (202) and followed to the end. */
  outcome: 'completed' | 'followed';
}

async function readJson(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolgateInvalidResponseError(`${what} is not JSON`, { cause: error });
  }
}

function parseEventData(data: string, path: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw new ToolgateInvalidResponseError(`GET ${path}: event data is not JSON`, { cause: error });
  }
}

function parseProgressData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

function exportsPath(query: ToolsQuery<Provider>): string {
  const params = new URLSearchParams({ format: query.format });
  if (query.tags !== undefined && query.tags.length > 0) params.set('tags', query.tags.join(','));
  if (query.names !== undefined && query.names.length > 0)
    params.set('names', query.names.join(','));
  // Sorted so equal queries share one cache entry whatever the object's key order.
  for (const name of Object.keys(query.pins ?? {}).sort())
    params.append('pin', `${name}@${query.pins?.[name] ?? ''}`);
  return `/v1/exports?${params.toString()}`;
}

/** The Toolgate client: pull tools by version in a provider's format, execute calls, run tool loops. */
export class Toolgate {
  private readonly transport: HttpTransport;
  private readonly deprecations: DeprecationNotices;
  private readonly exportCache = new Map<
    string,
    { etag: string; exported: ToolExport<Provider> }
  >();
  private readonly baseUrl: string;

  constructor(options: ToolgateOptions) {
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
    });
  }

  /**
   * Pulls tools in `query.format` (`GET /v1/exports`), revalidating a cached answer with its ETag
   * (a 304 reuses the cached body) and surfacing each deprecation once.
   */
  async tools<TProvider extends Provider>(
    query: ToolsQuery<TProvider>,
  ): Promise<ToolExport<TProvider>> {
    const path = exportsPath(query);
    const cached = this.exportCache.get(path);
    const exported = await this.transport.send(
      {
        method: 'GET',
        path,
        safeToRetry: true,
        signal: query.signal,
        ...(cached === undefined ? {} : { headers: { 'if-none-match': cached.etag } }),
      },
      async (response) => {
        if (response.status === 304) {
          if (cached === undefined)
            throw new ToolgateInvalidResponseError(
              'GET /v1/exports answered 304 to a request without If-None-Match',
            );
          this.deprecations.observe({
            url: `${this.baseUrl}${path}`,
            headers: response.headers,
            resolution: cached.exported.resolution,
          });
          // A copy: the caller may change what it gets (add tools, edit descriptions) without touching the cache.
          return { ...structuredClone(cached.exported), fromCache: true };
        }
        const body = parseResponse(
          ExportsResponseSchema,
          await readJson(response, 'GET /v1/exports'),
          'GET /v1/exports',
        );
        this.deprecations.observe({
          url: `${this.baseUrl}${path}`,
          headers: response.headers,
          resolution: body.resolution,
        });
        const fresh: ToolExport<Provider> = {
          format: query.format,
          // The items are the provider's own definitions; the provider validates them when they are sent.
          tools: body.tools as unknown as ToolExport<Provider>['tools'],
          resolution: body.resolution,
          skipped: body.skipped,
          requestOptions: body.request_options,
          downgrades: body.downgrades,
          body,
          fromCache: false,
        };
        const etag = response.headers.get('etag');
        if (etag !== null) this.exportCache.set(path, { etag, exported: structuredClone(fresh) });
        return fresh;
      },
    );
    return exported as ToolExport<TProvider>;
  }

  /**
   * Hands the model's tool calls to the gateway (`POST /v1/calls`) and returns the results in the provider's
   * format: at once on 200, or after following every call's event stream to `finished` on 202.
   */
  async execute<TProvider extends Provider>(
    options: ExecuteOptions<TProvider>,
  ): Promise<ExecuteResult<TProvider>> {
    const body: CreateCallsRequest = {
      provider: options.provider,
      payload: options.payload,
      ...(options.conversationId === undefined ? {} : { conversation_id: options.conversationId }),
      ...(options.waitMs === undefined ? {} : { wait_ms: options.waitMs }),
    };
    const answer = await this.transport.send(
      {
        method: 'POST',
        path: '/v1/calls',
        body,
        // Only an Idempotency-Key makes a repeated POST safe: without one a retry could run a tool twice.
        safeToRetry: options.idempotencyKey !== undefined,
        signal: options.signal,
        ...(options.idempotencyKey === undefined
          ? {}
          : { headers: { 'idempotency-key': options.idempotencyKey } }),
      },
      async (response) => ({
        status: response.status,
        json: await readJson(response, 'POST /v1/calls'),
      }),
    );
    if (answer.status === 202) {
      const accepted = parseResponse(
        CallsAcceptedResponseSchema,
        answer.json,
        'POST /v1/calls 202',
      );
      const toolResults = await this.followCalls(accepted.call_ids, options);
      return {
        results: getAdapter(options.provider).resultsToWire(
          toolResults,
        ) as WireResultsByProvider[TProvider],
        calls: accepted.call_ids.map((id) => ({ id })),
        toolResults,
        outcome: 'followed',
      };
    }
    const completed = parseResponse(
      CallsCompletedResponseSchema,
      answer.json,
      'POST /v1/calls 200',
    );
    return {
      // The wire results are the provider's format, produced by the gateway's adapter for `provider`.
      results: completed.results as WireResultsByProvider[TProvider],
      calls: completed.calls,
      toolResults: undefined,
      outcome: 'completed',
    };
  }

  /**
   * Runs a model <-> tools loop whose calls the gateway executes (unless `execute` names a local executor);
   * see `runToolLoop`.
   */
  runToolLoop<TRequest extends object>(
    options: GatewayToolLoopOptions<TRequest>,
  ): Promise<ToolLoopResult<TRequest>> {
    return runToolLoop({ ...options, gateway: this });
  }

  private async followCalls(
    callIds: readonly string[],
    options: ExecuteOptions<Provider>,
  ): Promise<ToolResultIR[]> {
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
        throw new ToolgateTimeoutError(
          `the calls did not finish within ${options.followTimeoutMs} ms`,
          {
            timeoutMs: options.followTimeoutMs,
            cause: error,
          },
        );
      }
      throw error;
    }
  }

  private followCall(input: {
    callId: string;
    signal: AbortSignal | undefined;
    onEvent: ((event: CallEvent) => void) | undefined;
  }): Promise<ToolResultIR> {
    const { callId, onEvent } = input;
    const path = `/v1/calls/${encodeURIComponent(callId)}/events`;
    // Mutated between attempts: a reconnect resumes after the last event seen (SSE `Last-Event-ID`).
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    return this.transport.send(
      { method: 'GET', path, headers, safeToRetry: true, signal: input.signal, timeoutMs: null },
      async (response) => {
        const contentType = response.headers.get('content-type') ?? '';
        if (!contentType.includes('text/event-stream') || response.body === null) {
          throw new ToolgateInvalidResponseError(
            `GET ${path} did not answer with text/event-stream (got ${contentType || 'no body'})`,
          );
        }
        for await (const event of readEventStream(response.body)) {
          if (event.id !== undefined) headers['last-event-id'] = event.id;
          if (event.event === 'finished') {
            const finished = parseResponse(
              CallFinishedDataSchema,
              parseEventData(event.data, path),
              `GET ${path} finished event`,
            );
            onEvent?.({ callId, type: event.event, data: finished });
            return finished.result;
          }
          // Progress events are informational: their data is passed on as sent (parsed when it is JSON).
          onEvent?.({ callId, type: event.event, data: parseProgressData(event.data) });
        }
        throw new ToolgateNetworkError(`GET ${path} ended before the call finished`);
      },
    );
  }
}
