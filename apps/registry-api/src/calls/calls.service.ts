import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  getAdapter,
  isProvider,
  PROVIDERS,
  readTurnUsage,
  type ParsedToolCalls,
  type Provider,
  type TurnUsage,
} from '@toolgate/adapters';
import type {
  Call,
  CallPage,
  CallPolicyDecision,
  CallsAccepted,
  CallSummary,
  ListCallsQuery,
  PartialArgumentStates,
  ProviderResults,
} from '@toolgate/contract';
import { hashArguments } from '@toolgate/engine';
import {
  FINAL_CALL_STATUSES,
  callCostOf,
  engineCallOf,
  type CallRow,
  type CatalogTool,
  type ClientRelayTarget,
  type NewCallRow,
} from '@toolgate/persistence';
import {
  formatJsonPointer,
  grammarCheckOf,
  resolveVersion,
  resourceKeyOf,
  runsInline,
  ToolgateError,
  type ToolCallIR,
  type ToolIR,
  type ToolResultIR,
} from '@toolgate/toolir';
import { z } from 'zod';
import { canarySubjectOf } from '../auth/canary-subject';
import { policyOAuthOf, type Principal } from '../auth/principal';
import { createdPositionOf, decodeCursor, pageOfRows } from '../common/pagination';
import { findValueTextProblem } from '../common/strict-json';
import { PriceBook } from '../prices/price-book';
import { ToolException, type ProblemIssue } from '../problem/tool.exception';
import {
  combinedDeprecationHeaders,
  deprecationNotice,
  type VersionDeprecation,
} from '../tools/deprecation-headers';
import { budgetHeaderOf } from '../budgets/budget-header';
import {
  ExportSnapshotsRepository,
  type SnapshotVersions,
} from '../exports/export-snapshots.repository';
import { activeTraceId } from '../telemetry/active-trace-id';
import { sunsetException } from '../tools/tool-versions.service';
import { ToolsRepository } from '../tools/tools.repository';
import { CallEventBus, type CallSettledType } from './call-event-bus';
import { settleCutCall, type CutCallOutcome } from './cut-call-repair';
import { GatewayHost } from './gateway-host';
import { GATEWAY_OPTIONS, type GatewayOptions } from './gateway-options';

const CallCursorSchema = z.strictObject({ created_at: z.iso.datetime(), id: z.uuid() });
// Waiters re-read their calls when the event bus says one settled; polling backs the bus up (an
// event from before the subscription, `awaiting_approval` sent just before its outcome is stored).
const WAIT_POLL_MS = 100;

/**
 * What POST /v1/calls answers: 200 with the results, or 202 while calls are still open; `headers`
 * are the Deprecation / Sunset / Link headers when a deprecated version serves a call.
 */
export type SubmitCallsResult<TResults = ProviderResults> = { headers: Record<string, string> } & (
  | {
      status: 200;
      body: { results: TResults; tool_results?: ToolResultIR[]; calls: CallSummary[] };
    }
  | { status: 202; body: CallsAccepted }
);

export interface SubmitCallsInput {
  provider: Provider;
  calls: ToolCallIR[];
  conversationId: string | undefined;
  waitMs: number | undefined;
  idempotencyKey: string | undefined;
  /**
   * Ids the adapter made up for calls the wire sent without one: equal calls of two requests share
   * them, so without an Idempotency-Key such a call is new in every request.
   */
  synthesizedIds?: ReadonlySet<string>;
  /** Which versions the calls run; by default the release's, bucketed by the API key. */
  versions?: CallVersionSelection;
  /** How streamed calls' arguments grew, by the model's call id; each is stored with its call. */
  partialStates?: Readonly<Record<string, PartialArgumentStates>> | undefined;
  /** The MCP session the calls come from, whose client can answer what their upstream asks. */
  clientRelay?: ClientRelayTarget;
  /** The turn's model and tokens, when the payload was the provider's whole response. */
  usage?: TurnUsage | undefined;
  /** The run step the calls make up (a run's turn or plan step); each call record links to it. */
  runStepId?: string | undefined;
  /** Each call's place in its run step, when not its place in `calls` (a retry of some calls of a step). */
  runStepIndexes?: readonly number[] | undefined;
  /**
   * The resource versions the run last saw, by resource key: a write on one of them carries the
   * version as the one it expects (If-Match, or the argument its tool declares). Read only when a
   * call's tool takes an expected version.
   */
  expectedVersions?: (() => Promise<ReadonlyMap<string, string>>) | undefined;
  /** `refresh`: the caller asked for fresh results (`Cache-Control: no-cache`); cached tools execute. */
  cache?: 'refresh' | undefined;
}

/**
 * What decides a call's version, strongest first: the call's own `tool_version` (IR calls), a
 * pin by tool name, the export snapshot the model was shown, then the release for `subject`.
 */
export interface CallVersionSelection {
  subject?: string | undefined;
  snapshot?: string | undefined;
  pins?: Readonly<Record<string, string>> | undefined;
}

interface ResolvedCall {
  call: ToolCallIR;
  tool: CatalogTool;
  version: string;
  ir: ToolIR;
}

export function callToDto(row: CallRow): Call {
  return {
    id: row.id,
    team_id: row.teamId,
    status: row.status,
    provider: row.provider,
    provider_call_id: row.providerCallId,
    conversation_id: row.conversationId,
    tool: { id: row.toolId, name: row.toolName, version: row.toolVersion },
    arguments: row.arguments,
    arguments_hash: row.argumentsHash,
    result: row.result === null ? null : wireResultOf(row),
    error_code: row.errorCode,
    attempts: row.attempts,
    answered_by: row.answeredBy,
    cache_age_ms: row.cacheAgeMs,
    latency_ms: row.latencyMs,
    decision:
      row.decisionEffect === null
        ? null
        : {
            effect: row.decisionEffect,
            rule: row.decisionRule,
            policy_revision: row.policyRevision,
          },
    input_check: row.inputCheck,
    partial_states: row.partialStates,
    arguments_repair: row.argumentsRepair,
    trace_id: row.traceId,
    cost: callCostOf(row),
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** The posted partial states by call id; a record naming no call of the payload is refused before anything is written. */
function partialStatesByCall(
  input: Pick<SubmitCallsInput, 'calls' | 'partialStates'>,
): ReadonlyMap<string, PartialArgumentStates> {
  const byCall = new Map(Object.entries(input.partialStates ?? {}));
  const ids = new Set(input.calls.map((call) => call.id));
  const strays = [...byCall.keys()].filter((id) => !ids.has(id));
  if (strays.length > 0) {
    throw new ToolException('invalid_request', 'Some partial states name no call of the payload.', {
      issues: strays.map((id) => ({
        path: `/body/partial_states${formatJsonPointer([id])}`,
        message: `no call of the payload has the id ${JSON.stringify(id)}`,
      })),
    });
  }
  return byCall;
}

function summaryOf(row: CallRow, lifecycle: VersionDeprecation | null = null): CallSummary {
  const deprecation = lifecycle === null ? null : deprecationNotice(lifecycle);
  return {
    id: row.id,
    status: row.status,
    tool: row.toolName,
    version: row.toolVersion,
    ...(deprecation === null ? {} : { deprecation }),
  };
}

/** The stored result addressed to the model's own call id (the engine ran it under the row id). */
export function wireResultOf(row: CallRow): ToolResultIR {
  const stored = (row.result ?? {}) as unknown as ToolResultIR;
  return { ...stored, call_id: row.providerCallId, name: row.toolName };
}

function isSettled(row: CallRow): boolean {
  return row.status === 'awaiting_approval' || FINAL_CALL_STATUSES.includes(row.status);
}

function isFinal(row: CallRow | undefined): boolean {
  return row !== undefined && FINAL_CALL_STATUSES.includes(row.status);
}

@Injectable()
export class CallsService {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(GatewayHost) private readonly gateway: GatewayHost,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    @Inject(CallEventBus) private readonly bus: CallEventBus,
    @Inject(ToolsRepository) private readonly tools: ToolsRepository,
    @Inject(ExportSnapshotsRepository) private readonly snapshots: ExportSnapshotsRepository,
    @Inject(PriceBook) private readonly priceBook: PriceBook,
  ) {}

  /** Reads the calls out of a provider payload; anything unreadable is a 4xx and nothing is recorded. */
  async parseProviderPayload(
    principal: Principal,
    input: { provider: string; payload: unknown },
  ): Promise<{
    provider: Provider;
    calls: ToolCallIR[];
    synthesizedIds: ReadonlySet<string>;
    usage: TurnUsage | undefined;
  }> {
    const teamId = this.requireTeam(principal);
    const provider = input.provider;
    if (!isProvider(provider)) {
      throw new ToolException(
        'unknown_format',
        `Unknown provider "${provider}"; use one of ${PROVIDERS.join(', ')}.`,
        {
          issues: [{ path: '/body/provider', message: `must be one of ${PROVIDERS.join(', ')}` }],
        },
      );
    }
    // A first read finds the names; the second maps wire names back with the tools' definitions.
    const names = this.parseWith(provider, input.payload, []).calls.map((call) => call.name);
    const irs = await this.toolsNamedOnWire(provider, names, teamId);
    const parsed = this.parseWith(provider, input.payload, irs);
    // Arguments a provider sends as a JSON string were decoded just now: the body guard never saw them.
    for (const [index, call] of parsed.calls.entries()) {
      const problem = findValueTextProblem(call.arguments, `/calls/${index}/arguments`);
      if (problem !== undefined) {
        throw new ToolException(
          'invalid_payload',
          'The arguments of a tool call hold text this gateway does not accept.',
          { issues: [{ path: problem.pointer, message: problem.message }] },
        );
      }
    }
    // Arguments that just stop (the model hit its token limit) are a call the model made: it is
    // recorded and answered (repaired or incomplete_arguments); malformed ones refuse the request.
    const malformed = parsed.errors.filter((error) => error.details.cut !== true);
    if (malformed.length > 0) {
      throw new ToolException(
        'invalid_payload',
        'The arguments of some tool calls are not a JSON object.',
        {
          issues: malformed.map((error) => ({
            path: `/body/payload${error.path === '/' ? '' : error.path}`,
            message: error.message,
          })),
        },
      );
    }
    const cut = parsed.errors.map((error): ToolCallIR => ({
      id: error.details.callId,
      name: error.details.name,
      arguments: {},
      raw_arguments: error.details.rawArguments,
      cut: true,
    }));
    return {
      provider,
      calls: [...parsed.calls, ...cut],
      synthesizedIds: new Set(parsed.synthesizedIds),
      usage: readTurnUsage(provider, input.payload),
    };
  }

  /**
   * The definitions that map each name the model sent back to its tool: the exports send a name
   * the wire refuses as `toWireName`'s rewrite (`orders.refund` -> `orders_refund_71d46ae3`),
   * and the catalog indexes those with the same function. A wire name that several callable tools
   * share is refused here, never guessed; a name with no tool is left for `resolve` to report.
   */
  private async toolsNamedOnWire(
    provider: Provider,
    names: readonly string[],
    teamId: string,
  ): Promise<ToolIR[]> {
    const matches = await this.gateway.catalog.callableByWireName(provider, names, teamId);
    const issues: ProblemIssue[] = [];
    const tools = new Map<string, CatalogTool>();
    names.forEach((name, index) => {
      const match = matches.get(name);
      if (match?.kind === 'tool') tools.set(match.tool.id, match.tool);
      if (match?.kind === 'ambiguous') {
        issues.push({
          path: `/calls/${index}/name`,
          message: `"${name}" names several tools on ${provider} (${match.tools.map((tool) => `"${tool.name}"`).join(', ')}); rename one of them`,
        });
      }
    });
    if (issues.length > 0) {
      throw new ToolException('unknown_tool', 'Some calls name tools that cannot be called.', {
        issues,
      });
    }
    return [...tools.values()].flatMap((tool) => {
      // Only the name and the strict-mode nulls come from this definition, so a tool without a
      // stable release still maps back (and `resolve` then says it has none).
      const row =
        tool.versions.find((version) => version.version === tool.release?.stableVersion) ??
        tool.versions[0];
      return row === undefined ? [] : [row.ir];
    });
  }

  private parseWith(
    provider: Provider,
    payload: unknown,
    tools: readonly ToolIR[],
  ): ParsedToolCalls {
    try {
      return getAdapter(provider).parseCalls(payload, { tools });
    } catch (error) {
      if (!ToolgateError.isInstance(error)) throw error;
      const details = (error.details ?? {}) as {
        path?: string;
        issues?: Array<{ path: string; message: string }>;
      };
      const issues: ProblemIssue[] = details.issues?.map((issue) => ({
        path: `/body/payload${issue.path === '/' ? '' : issue.path}`,
        message: issue.message,
      })) ?? [
        {
          path: `/body/payload${details.path === undefined || details.path === '/' ? '' : details.path}`,
          message: error.message,
        },
      ];
      throw new ToolException(
        'invalid_payload',
        `The payload is not a valid ${provider} tool-call payload.`,
        { issues, cause: error },
      );
    }
  }

  /**
   * Records the calls (deduplicated by idempotency key), executes the new ones and waits up to
   * wait_ms; results come back in the provider's wire format.
   */
  async submit(principal: Principal, input: SubmitCallsInput): Promise<SubmitCallsResult> {
    const outcome = await this.execute(principal, input);
    if (outcome.status === 202) return outcome;
    const toolResults = outcome.body.results;
    // The calls say which results answer free-text calls (Responses answers those differently).
    const results = getAdapter(input.provider).resultsToWire(toolResults, { calls: input.calls });
    return { ...outcome, body: { results, tool_results: toolResults, calls: outcome.body.calls } };
  }

  /** POST /v1/calls/ir: as `submit`, with ToolCallIR calls and ToolResultIR results. */
  submitIR(
    principal: Principal,
    input: Omit<SubmitCallsInput, 'provider'>,
  ): Promise<SubmitCallsResult<ToolResultIR[]>> {
    return this.execute(principal, { ...input, provider: 'ir' });
  }

  // `ir` is recorded as the calls' provider, so a call record tells which wire it came over.
  private async execute(
    principal: Principal,
    input: Omit<SubmitCallsInput, 'provider'> & { provider: Provider | 'ir' },
  ): Promise<SubmitCallsResult<ToolResultIR[]>> {
    const teamId = this.requireTeam(principal);
    if (input.calls.length === 0) {
      throw new ToolException('invalid_payload', 'The payload holds no tool calls.', {
        issues: [{ path: '/body/payload', message: 'contains no tool calls' }],
      });
    }
    const partialStates = partialStatesByCall(input);
    const resolved = await this.resolve(principal, input.calls, input.versions ?? {});
    const cutOutcomes = settleCutCalls(resolved);
    // A turn of readonly tools declared inline, none waiting for another, runs here with no queue
    // hop; anything else goes through the queue.
    const inline = resolved.every(
      ({ ir }) => runsInline(ir) && (ir.dependencies?.tools.length ?? 0) === 0,
    );
    const traceId = activeTraceId();
    // Priced from the in-memory price table: recording the turn stays one statement.
    const tokenCosts =
      input.provider === 'ir'
        ? undefined
        : await this.priceBook.costTurn({
            provider: input.provider,
            usage: input.usage,
            arguments: resolved.map(({ call }) => call.arguments),
          });
    const seenVersions = resolved.some(({ ir }) => ir.concurrency?.expected !== undefined)
      ? await input.expectedVersions?.()
      : undefined;
    const wanted: NewCallRow[] = resolved.map(({ call, tool, version, ir }, index) => {
      const cut = cutOutcomes[index];
      const args = cut?.kind === 'repaired' ? cut.arguments : call.arguments;
      return {
        id: randomUUID(),
        providerCallId: call.id,
        toolId: tool.id,
        toolName: tool.name,
        toolVersion: version,
        arguments: args,
        // A call that never runs is told apart by the text that arrived, its arguments being empty.
        argumentsHash: hashArguments(
          cut?.kind === 'not_repaired' ? (call.raw_arguments ?? '') : args,
        ),
        idempotencyKey: this.idempotencyKeyOf(input, call),
        inputCheck: grammarCheckOf(ir),
        partialStates: partialStates.get(call.id),
        ...(traceId === undefined ? {} : { traceId }),
        ...(tokenCosts?.[index] === undefined ? {} : { tokenCost: tokenCosts[index] }),
        ...(input.runStepId === undefined
          ? {}
          : { runStep: { id: input.runStepId, index: input.runStepIndexes?.[index] ?? index } }),
        ...expectedVersionOf(ir, args, seenVersions),
        ...(cut === undefined ? {} : { argumentsRepair: cut.repair }),
        ...(cut?.kind === 'not_repaired'
          ? { refusal: cut.refusal }
          : inline
            ? { run: this.gateway.inlineRun() }
            : {}),
      };
    });
    const recorded = await this.gateway.calls.recordTurn(
      {
        teamId,
        keyId: principal.keyId,
        actor: principal.actor,
        oauth: policyOAuthOf(principal),
        clientRelay: input.clientRelay ?? null,
        conversationId: input.conversationId ?? null,
        provider: input.provider,
      },
      wanted,
    );
    const mismatch = recorded.rows.findIndex(
      (row, index) => !recorded.inserted.has(row.id) && !isSameCall(row, wanted[index]),
    );
    if (mismatch >= 0) {
      // The whole request is refused: what it inserted beside the conflict goes again.
      await this.gateway.calls.discard([...recorded.inserted]);
      const existing = recorded.rows[mismatch];
      throw new ToolException(
        'conflict',
        'The idempotency key was already used for a different call.',
        {
          issues: [
            {
              path: `/calls/${mismatch}`,
              message: `idempotency key already names call ${existing?.id ?? ''} (${existing?.toolName ?? ''}) with other arguments`,
            },
          ],
        },
      );
    }
    const waiter = this.watch(recorded.rows);
    const fresh = resolved.flatMap((entry, index) => {
      const row = recorded.rows[index];
      // A cut call that was not repaired is recorded final: nothing runs it.
      if (cutOutcomes[index]?.kind === 'not_repaired') return [];
      return row !== undefined && recorded.inserted.has(row.id) ? [{ row, tool: entry.ir }] : [];
    });
    const cache = input.cache === undefined ? {} : { cache: input.cache };
    if (inline) this.gateway.runInline(fresh, cache);
    else {
      this.gateway.dispatch(
        fresh.map(({ row, tool }) => ({ call: engineCallOf(row), tool })),
        cache,
      );
    }
    const waitMs = Math.min(input.waitMs ?? this.options.defaultWaitMs, this.options.maxWaitMs);
    const settled = await waiter.until(waitMs);
    const lifecycles = await this.deprecatedLifecycles(settled, resolved);
    const summaries = settled.map((row, index) => summaryOf(row, lifecycles[index] ?? null));
    const headers = {
      ...combinedDeprecationHeaders(lifecycles.flatMap((entry) => entry ?? [])),
      // A spent budget is told beside the results, for apps that read headers, not `_meta`.
      ...budgetHeaderOf(settled.flatMap((row) => (row.result === null ? [] : [wireResultOf(row)]))),
    };
    if (!settled.every(isFinal)) {
      return {
        status: 202,
        headers,
        body: { call_ids: settled.map((row) => row.id), calls: summaries },
      };
    }
    return { status: 200, headers, body: { results: settled.map(wireResultOf), calls: summaries } };
  }

  /**
   * The deprecation of each call's version, else null (in the rows' order), from the in-memory
   * catalog, which carries every version of a resolved tool; only a version the catalog does not
   * know yet (it reloads within its max age) is read from the database.
   */
  private async deprecatedLifecycles(
    rows: readonly CallRow[],
    resolved: readonly ResolvedCall[],
  ): Promise<Array<VersionDeprecation | null>> {
    return Promise.all(
      rows.map(async (row, index) => {
        // A replayed call keeps the version it was recorded with, which may not be today's.
        const known = resolved[index]?.tool.versions.find(
          (entry) => entry.version === row.toolVersion,
        );
        const version = known ?? (await this.tools.findVersion(row.toolId, row.toolVersion));
        if (version === null || version.deprecatedAt === null) return null;
        return {
          toolId: row.toolId,
          deprecatedAt: version.deprecatedAt,
          sunsetAt: version.sunsetAt,
          successorVersion: version.successorVersion,
        };
      }),
    );
  }

  /**
   * Checks that every call names a tool (and version) the caller can call, as recording them
   * would, without recording anything: a plan is refused before it is written.
   */
  async assertCallable(principal: Principal, calls: readonly ToolCallIR[]): Promise<void> {
    await this.resolve(principal, calls, {});
  }

  async get(principal: Principal, id: string): Promise<Call> {
    return callToDto(await this.require(principal, id));
  }

  async require(principal: Principal, id: string): Promise<CallRow> {
    await this.gateway.settled([id]);
    const row = await this.gateway.calls.findById(id, principal.teamId);
    if (row === undefined) throw new ToolException('not_found', `Call ${id} was not found.`);
    return row;
  }

  async decision(principal: Principal, id: string): Promise<CallPolicyDecision> {
    const row = await this.require(principal, id);
    return {
      call_id: row.id,
      effect: row.decisionEffect,
      matched_rule: row.decisionRule,
      policy_revision: row.policyRevision,
      reason: row.errorCode === 'policy_denied' ? (wireResultOf(row).error?.message ?? null) : null,
    };
  }

  async list(principal: Principal, query: ListCallsQuery): Promise<CallPage> {
    const cursor =
      query.cursor === undefined ? undefined : decodeCursor(query.cursor, CallCursorSchema);
    if (cursor === null) {
      throw new ToolException('invalid_request', 'The cursor is not valid.', {
        issues: [{ path: '/query/cursor', message: 'must be a cursor returned by this API' }],
      });
    }
    await this.gateway.settled();
    const rows = await this.gateway.calls.list({
      teamId: principal.teamId,
      status: query.status,
      toolName: query.tool,
      from: query.from === undefined ? undefined : new Date(query.from),
      to: query.to === undefined ? undefined : new Date(query.to),
      before:
        cursor === undefined
          ? undefined
          : { createdAt: new Date(cursor.created_at), id: cursor.id },
      limit: query.limit + 1,
    });
    const page = pageOfRows(rows, query.limit, createdPositionOf);
    return { items: page.rows.map(callToDto), next_cursor: page.nextCursor };
  }

  /** Cancels a call that has not finished: a running one is aborted, a queued or waiting one never runs. */
  async cancel(principal: Principal, id: string): Promise<Call> {
    const row = await this.require(principal, id);
    const cancelled = await this.gateway.calls.cancel(row.id, {
      call_id: row.id,
      name: row.toolName,
      ok: false,
      error: { code: 'cancelled', message: 'The call was cancelled.', retryable: false },
    });
    if (cancelled === undefined) {
      throw new ToolException('conflict', `Call ${id} has already finished (${row.status}).`);
    }
    this.gateway.cancelled({ id: row.id, tool: row.toolName });
    return callToDto(cancelled);
  }

  /** Waits until each call is final or awaiting approval, or the budget is spent. */
  async waitForCalls(ids: readonly string[], waitMs: number): Promise<CallRow[]> {
    const waiter = this.watch([]);
    try {
      await this.gateway.settled(ids);
      waiter.track(await this.gateway.calls.findMany(ids));
      return await waiter.until(waitMs, ids);
    } finally {
      waiter.stop();
    }
  }

  /**
   * Watches calls from now on: a `finished` event carries the stored outcome, so it settles a call
   * without a read; other settling events (awaiting approval, cancelled) and a poll re-read the
   * rows, which also covers an event lost on the bus.
   */
  private watch(initial: readonly CallRow[]): CallWaiter {
    return new CallWaiter(
      this.bus,
      async (ids) => {
        await this.gateway.settled(ids);
        return this.gateway.calls.findMany(ids);
      },
      initial,
    );
  }

  private requireTeam(principal: Principal): string {
    if (principal.teamId === null) {
      throw new ToolException(
        'invalid_request',
        'Calls are made with a team key; the installation admin key belongs to no team.',
      );
    }
    return principal.teamId;
  }

  /** The versions an export snapshot names; a handle no export gave out is refused. */
  private async snapshotOf(handle: string | undefined): Promise<SnapshotVersions | undefined> {
    if (handle === undefined) return undefined;
    const versions = await this.snapshots.find(handle);
    if (versions === undefined) {
      throw new ToolException('invalid_request', `No export answered with snapshot ${handle}.`, {
        issues: [
          {
            path: '/snapshot',
            message: 'names no export snapshot; send the `snapshot` of an export of these tools',
          },
        ],
      });
    }
    return versions;
  }

  private idempotencyKeyOf(
    input: Pick<SubmitCallsInput, 'conversationId' | 'idempotencyKey' | 'synthesizedIds'>,
    call: ToolCallIR,
  ): string {
    // One header covers a whole request: each of its calls gets its own key under it.
    if (input.idempotencyKey !== undefined) return `${input.idempotencyKey}:${call.id}`;
    // An id made up from the call's name and arguments says nothing about which request it is in:
    // "what is the weather in Oslo" asked twice is two calls.
    if (input.synthesizedIds?.has(call.id) === true) return `fresh:${randomUUID()}`;
    return createHash('sha256')
      .update(`${input.conversationId ?? ''}\u0000${call.id}`)
      .digest('hex');
  }

  private async resolve(
    principal: Principal,
    calls: readonly ToolCallIR[],
    selection: CallVersionSelection,
  ): Promise<ResolvedCall[]> {
    const teamId = this.requireTeam(principal);
    const snapshot = await this.snapshotOf(selection.snapshot);
    const subject = canarySubjectOf(principal, selection.subject);
    const now = new Date();
    const seen = new Set<string>();
    const issues: ProblemIssue[] = [];
    calls.forEach((call, index) => {
      if (seen.has(call.id))
        issues.push({ path: `/calls/${index}/id`, message: `call id ${call.id} appears twice` });
      seen.add(call.id);
    });
    if (issues.length > 0) {
      throw new ToolException('invalid_payload', 'Call ids must be unique in a request.', {
        issues,
      });
    }
    const tools = await this.gateway.catalog.callableTools(
      calls.map((call) => call.name),
      teamId,
    );
    const resolved: ResolvedCall[] = [];
    calls.forEach((call, index) => {
      const tool = tools.get(call.name);
      if (tool === undefined) {
        issues.push({
          path: `/calls/${index}/name`,
          message: `no tool named "${call.name}" is registered for this team`,
        });
        return;
      }
      const pin = call.tool_version ?? selection.pins?.[call.name] ?? snapshot?.[tool.id];
      const resolution = resolveCallVersion({ tool, pin, subject, now });
      if (resolution.kind === 'refused') {
        issues.push({ path: `/calls/${index}/name`, message: resolution.message });
        return;
      }
      resolved.push({ call, tool, version: resolution.version, ir: resolution.ir });
    });
    if (issues.length > 0) {
      throw new ToolException('unknown_tool', 'Some calls name tools that cannot be called.', {
        issues,
      });
    }
    return resolved;
  }
}

/**
 * The version one call runs. A version that was pinned (by the call, a pin or a snapshot) and is
 * past its sunset is a 410 naming the successor, as an export of it is; anything else that cannot
 * be resolved is reported with the other calls' problems.
 */
export function resolveCallVersion(input: {
  tool: CatalogTool;
  pin: string | undefined;
  subject: string;
  now: Date;
}): { kind: 'resolved'; version: string; ir: ToolIR } | { kind: 'refused'; message: string } {
  const { tool, pin, subject, now } = input;
  const stable = tool.release?.stableVersion ?? null;
  const label = pin === undefined || pin === 'stable' || pin === 'canary';
  if (stable === null && label) {
    return { kind: 'refused', message: `tool "${tool.name}" has no stable release` };
  }
  try {
    const { version } = resolveVersion({
      versions: tool.versions.map((row) => ({
        version: row.version,
        sunset_at: row.sunsetAt,
        deprecated_at: row.deprecatedAt,
        status: row.status,
      })),
      // Without a release only a pin selects a version; any existing version satisfies the argument.
      stable: stable ?? tool.versions[0]?.version ?? '0.0.0',
      canary:
        tool.release?.canaryVersion && tool.release.canaryPercent > 0
          ? { version: tool.release.canaryVersion, percent: tool.release.canaryPercent }
          : null,
      pin: pin ?? null,
      subject,
      toolId: tool.id,
      now,
    });
    const row = tool.versions.find((candidate) => candidate.version === version);
    if (row === undefined || row.status !== 'published') {
      return {
        kind: 'refused',
        message: `tool "${tool.name}": version ${version} is not published`,
      };
    }
    return { kind: 'resolved', version, ir: row.ir };
  } catch (error) {
    if (!ToolgateError.isInstance(error)) throw error;
    if (error.code === 'version_sunset' && !label) {
      const details = (error.details ?? {}) as { version?: string };
      const row = tool.versions.find((candidate) => candidate.version === details.version);
      if (row !== undefined) throw sunsetException({ toolId: tool.id, ...row });
    }
    return { kind: 'refused', message: `tool "${tool.name}": ${error.message}` };
  }
}

/**
 * Repairs or refuses each cut call of a turn (undefined for whole ones). Arguments a repair
 * completed come from provider text the body guard never saw, so they are checked as parsed ones are.
 */
function settleCutCalls(resolved: readonly ResolvedCall[]): Array<CutCallOutcome | undefined> {
  const outcomes = resolved.map(({ call, ir }) =>
    call.cut === true ? settleCutCall(call, ir) : undefined,
  );
  const issues: ProblemIssue[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome?.kind !== 'repaired') return;
    const problem = findValueTextProblem(outcome.arguments, `/calls/${index}/arguments`);
    if (problem !== undefined) issues.push({ path: problem.pointer, message: problem.message });
  });
  if (issues.length > 0) {
    throw new ToolException(
      'invalid_payload',
      'The arguments of a tool call hold text this gateway does not accept.',
      { issues },
    );
  }
  return outcomes;
}

function isSameCall(existing: CallRow, wanted: NewCallRow | undefined): boolean {
  return (
    wanted !== undefined &&
    existing.toolName === wanted.toolName &&
    existing.argumentsHash === wanted.argumentsHash
  );
}

/** One waiter of `submit` or `waitForCalls`: the rows as last known, updated by events and reads. */
class CallWaiter {
  private readonly rows = new Map<string, CallRow>();
  private readonly unsubscribe = new Map<string, () => void>();
  private wake: (() => void) | undefined;
  private reread = false;
  private changed = false;

  constructor(
    private readonly bus: CallEventBus,
    private readonly read: (ids: readonly string[]) => Promise<CallRow[]>,
    initial: readonly CallRow[],
  ) {
    this.track(initial);
  }

  track(rows: readonly CallRow[]): void {
    for (const row of rows) {
      this.rows.set(row.id, row);
      if (this.unsubscribe.has(row.id)) continue;
      const stopEvents = this.bus.subscribe(row.id, (event) => {
        if (event.type !== 'finished') return;
        const known = this.rows.get(event.call_id);
        if (known === undefined || isFinal(known)) return;
        this.rows.set(event.call_id, {
          ...known,
          status: event.status,
          result: { ...event.result, call_id: known.id },
          errorCode: event.error_code ?? null,
          latencyMs: Math.round(event.latency_ms),
          finishedAt: new Date(event.at),
        });
        this.signal(false);
      });
      const stopWatch = this.bus.watch(row.id, (type: CallSettledType) => {
        if (type !== 'finished') this.signal(true);
      });
      this.unsubscribe.set(row.id, () => {
        stopEvents();
        stopWatch();
      });
    }
  }

  /** Resolves with the rows (in `order`) once all are settled or `waitMs` passed; then stops watching. */
  async until(waitMs: number, order?: readonly string[]): Promise<CallRow[]> {
    const ids = order ?? [...this.rows.keys()];
    const deadline = Date.now() + waitMs;
    try {
      for (;;) {
        const current = ids.flatMap((id) => {
          const row = this.rows.get(id);
          return row === undefined ? [] : [row];
        });
        if (current.every(isSettled) || Date.now() >= deadline) return current;
        if (this.reread) {
          this.reread = false;
          this.track(await this.read(ids.filter((id) => !isFinal(this.rows.get(id)))));
          continue;
        }
        await new Promise<void>((resolve) => {
          if (this.changed) {
            resolve();
            return;
          }
          const timer = setTimeout(
            () => {
              // No event in time: read the rows, whatever the bus lost.
              this.reread = true;
              resolve();
            },
            Math.min(WAIT_POLL_MS, Math.max(0, deadline - Date.now())),
          );
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
        this.changed = false;
      }
    } finally {
      this.stop();
    }
  }

  stop(): void {
    for (const stop of this.unsubscribe.values()) stop();
    this.unsubscribe.clear();
  }

  private signal(reread: boolean): void {
    if (reread) this.reread = true;
    this.changed = true;
    this.wake?.();
  }
}

/** The version a write expects, when its tool takes one and its run saw the resource. */
function expectedVersionOf(
  ir: ToolIR,
  args: Record<string, unknown>,
  seen: ReadonlyMap<string, string> | undefined,
): { expectedVersion?: string } {
  if (seen === undefined || ir.concurrency?.expected === undefined) return {};
  const key = resourceKeyOf(ir, { arguments: args });
  const version = key === undefined ? undefined : seen.get(key);
  return version === undefined ? {} : { expectedVersion: version };
}
