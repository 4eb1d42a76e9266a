import { inLoopSpan, type TracerLike } from './telemetry/client-tracing';
import {
  createToolCallStream,
  getAdapter,
  invalidArgumentsResult,
  type Provider,
  type ToolCallStreamEvent,
} from '@toolgate/adapters';
import type { ToolCallIR, ToolIR, ToolResultIR } from '@toolgate/toolir';
import { ToolgateInvalidResponseError, ToolgateSdkError } from './errors/toolgate-sdk-error';
import { onRun, postTurn, type LoopOnRun } from './runs/loop-on-run';
import type { LocalToolDefinition, LocalTools, ToolExecutor } from './local-tools';
import { appendTurn, asList, loopDialect, type LoopDialect, type ModelTurn } from './loop-dialects';
import { anyStopCondition, type StopCondition } from './loop/stop-conditions';
import {
  typeStep,
  type NoRegistryTools,
  type RegistryToolTypes,
  type StepOutcome,
  type ToolCallExecutor,
  type StepToolCall,
  type StepToolResult,
} from './loop/tool-types';
import {
  observed,
  recordPartialStates,
  type PartialStateRecorder,
  type PartialStatesOptions,
} from './stream/partial-states/partial-state-recorder';
import { createResponseAssembler } from './stream/response-assembler';
import type { LoopToolSearch } from './tool-search/tool-search';
import type { Toolgate } from './toolgate-client';

/** The OpenAI Chat Completions surface the loop calls (`new OpenAI()` fits). */
export interface OpenAIChatLoopClient<TRequest> {
  chat: { completions: { create(request: TRequest): PromiseLike<unknown> } };
}

/** The OpenAI Responses surface the loop calls (`new OpenAI()` fits). */
export interface OpenAIResponsesLoopClient<TRequest> {
  responses: { create(request: TRequest): PromiseLike<unknown> };
}

/** The Anthropic Messages surface the loop calls (`new Anthropic()` fits). */
export interface AnthropicLoopClient<TRequest> {
  messages: { create(request: TRequest): PromiseLike<unknown> };
}

/** The Gemini surface the loop calls (`new GoogleGenAI()` fits). */
export interface GeminiLoopClient<TRequest> {
  models: { generateContent(request: TRequest): PromiseLike<unknown> };
}

/** The Gemini surface the streaming loop calls (`new GoogleGenAI()` fits). */
export interface GeminiStreamLoopClient<TRequest> {
  models: { generateContentStream(request: TRequest): PromiseLike<AsyncIterable<unknown>> };
}

/** The tools a loop knows the types of: `localTools([...])`'s definitions, none by default. */
type LoopTools = readonly LocalToolDefinition[];

/** One model turn that asked for tools, and what they returned. */
export interface ToolLoopStep<
  TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> {
  /** The calls as parsed from the model's turn (wire names mapped back). */
  calls: ToolCallIR[];
  /** One result per call in `calls`, then one per call whose arguments were not JSON. */
  results: ToolResultIR[];
  /** The same calls typed per tool name where the loop knows the tool (`defineTool`), one per result. */
  toolCalls: Array<StepToolCall<TTools, TRegistry>>;
  /** The same results, typed like `toolCalls` (the handler's return type as `data`). */
  toolResults: Array<StepToolResult<TTools, TRegistry>>;
  /** The assistant text of this turn, when the model wrote any beside its calls. */
  text: string | undefined;
}

/** The provider, its client and the first request; the request's type comes from the client's method, so literals are checked against it. */
export type ToolLoopTarget<TRequest> =
  | { provider: 'openai-chat'; client: OpenAIChatLoopClient<TRequest>; request: NoInfer<TRequest> }
  | {
      provider: 'openai-responses';
      client: OpenAIResponsesLoopClient<TRequest>;
      request: NoInfer<TRequest>;
    }
  | { provider: 'anthropic'; client: AnthropicLoopClient<TRequest>; request: NoInfer<TRequest> }
  | { provider: 'gemini'; client: GeminiLoopClient<TRequest>; request: NoInfer<TRequest> };

/** As `ToolLoopTarget`, for the streaming loop: Gemini streams from `generateContentStream`. */
export type StreamToolLoopTarget<TRequest> =
  | Exclude<ToolLoopTarget<TRequest>, { provider: 'gemini' }>
  | { provider: 'gemini'; client: GeminiStreamLoopClient<TRequest>; request: NoInfer<TRequest> };

/** What `prepareStep` sees before each model call. */
export interface PrepareStepContext<
  TRequest,
  TTools extends LoopTools,
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> {
  /** The step about to run, from 0. */
  stepNumber: number;
  steps: ReadonlyArray<ToolLoopStep<TTools, TRegistry>>;
  /** The conversation so far. */
  request: TRequest;
}

/** How long the loop may run and how its tool calls are executed. */
export interface ToolLoopSettings<
  TRequest,
  TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> {
  /** How many turns of tool calls are executed before the loop stops with `stopped: 'max_steps'` (default 10). */
  maxSteps?: number;
  /**
   * Asked after each executed step (a condition, or a list of which any may hold): `stepCountIs(3)`,
   * `hasToolCall('final_answer')`, or your own predicate; ends the loop with `stopped: 'stop_condition'`.
   */
  stopWhen?: StopCondition<TTools, TRegistry> | ReadonlyArray<StopCondition<TTools, TRegistry>>;
  /**
   * Called before each model call; the request it returns is sent for this step only (change the
   * model, the tools, `tool_choice`, or trim the messages), and the conversation goes on from yours.
   */
  prepareStep?: (
    context: PrepareStepContext<TRequest, TTools, TRegistry>,
  ) => TRequest | undefined | PromiseLike<TRequest | undefined>;
  /**
   * Runs calls in-process: `localTools([...])` (its tools are typed in `steps`), or any executor.
   * Through a gateway client, only calls of `localTools`' own tools run here and the rest go to the
   * gateway; a plain executor runs every call.
   */
  execute?: ToolExecutor | LocalTools<TTools>;
  /** The tools offered to the model, to map wire names back (defaults to `execute.tools` when it has them). */
  tools?: readonly ToolIR[];
  /**
   * Lets the model find its tools (`client.toolSearch({ format })`, with its `definition` in the
   * request's tools): the loop answers each search and offers the tools found from the next step
   * on (on Responses the search's output loads them), each running at the version it was found at.
   */
  toolSearch?: LoopToolSearch;
  /** Sent to the gateway with every batch of calls (not with `run`: a run has its own). */
  conversationId?: string;
  /**
   * A durable ReAct run (`toolgate.runs.create({ mode: 'react' })`) the loop drives: before its
   * first model call it appends the run's transcript (its earlier turns' calls and results, in
   * this loop's provider format) after the request's messages, and each turn's calls run as the
   * run's next step (`POST /v1/runs/{runId}/turns`) under a key naming the turn's place in the run,
   * so a process that stopped goes on where the run is without running a call twice. Only through
   * a gateway, without local tools or `toolSearch` (the run could not record what they do); a run
   * that ended throws `ToolgateRunEndedError`.
   */
  run?: { id: string };
  /** Called after each executed step. */
  onStep?: (step: ToolLoopStep<TTools, TRegistry>) => void;
  signal?: AbortSignal;
  /**
   * An OpenTelemetry tracer: `runToolLoop` runs as an `invoke_agent toolgate.tool_loop` span, the
   * parent of its model calls and gateway requests where the app installed a context manager.
   */
  tracer?: TracerLike;
}

/** `Toolgate#runToolLoop`'s options: the gateway is the client itself. */
export type GatewayToolLoopOptions<
  TRequest,
  TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> = ToolLoopTarget<TRequest> & ToolLoopSettings<TRequest, TTools, TRegistry>;

/** `runToolLoop`'s options: a local executor, or a gateway client to execute through. */
export type ToolLoopOptions<
  TRequest,
  TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> = GatewayToolLoopOptions<TRequest, TTools, TRegistry> & { gateway?: Toolgate<TRegistry> };

/** What only the streaming loop does. */
export interface StreamToolLoopSettings {
  /**
   * Records how each call's arguments grew (`recordPartialStates`, one recorder per step) and posts
   * each record with its call to the gateway, which keeps it on the call; with a `tracer`, every
   * streamed call also gets a span with the records as events. `{}` records with the default bounds.
   */
  partialStates?: PartialStatesOptions;
}

/** `Toolgate#streamToolLoop`'s options. */
export type GatewayStreamToolLoopOptions<
  TRequest,
  TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> = StreamToolLoopTarget<TRequest> &
  ToolLoopSettings<TRequest, TTools, TRegistry> &
  StreamToolLoopSettings;

/** `streamToolLoop`'s options. */
export type StreamToolLoopOptions<
  TRequest,
  TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> = GatewayStreamToolLoopOptions<TRequest, TTools, TRegistry> & { gateway?: Toolgate<TRegistry> };

/** Where the loop ended: the model's final answer, the step budget, or a stop condition. */
export interface ToolLoopResult<
  TRequest,
  TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> {
  /** The last model response: the final answer, or (for `max_steps`) a turn whose tool calls were not executed. */
  final: unknown;
  /** The assistant text of the last response. */
  text: string | undefined;
  /** The request with the whole conversation so far; the next turn can continue from it. */
  request: TRequest;
  steps: Array<ToolLoopStep<TTools, TRegistry>>;
  /**
   * `final`: the model answered without tool calls; `max_steps`: `maxSteps` turns of tools ran and
   * the model asked for more; `stop_condition`: a `stopWhen` condition held after a step (its results
   * are in `request`).
   */
  stopped: 'final' | 'max_steps' | 'stop_condition';
}

/** What the streaming loop yields: the model's stream as it arrives, then each step and the end. */
export type ToolLoopEvent<
  TRequest,
  TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> =
  | (ToolCallStreamEvent & { step: number })
  | { type: 'step_finish'; step: number; toolStep: ToolLoopStep<TTools, TRegistry> }
  | { type: 'finish'; result: ToolLoopResult<TRequest, TTools, TRegistry> };

function newIdempotencyKey(): string {
  // Web Crypto is global in browsers, workers and Node 20; a key per batch makes the POST safe to retry.
  return globalThis.crypto.randomUUID();
}

/** The calls of one step, by who runs them. */
interface StepPlan {
  local: ToolCallIR[];
  remote: ToolCallIR[];
}

/** What one loop, streaming or not, works with. */
interface LoopRun<TTools extends LoopTools, TRegistry extends RegistryToolTypes> {
  options: ToolLoopOptions<object, TTools, TRegistry>;
  dialect: LoopDialect;
  /** Names of local tools the loop knows the types of. */
  typedNames: ReadonlySet<string>;
  /** Names of registry tools the gateway client knows the types of. */
  registryNames: ReadonlySet<string>;
  parseOptions: { tools?: readonly ToolIR[] };
  /** Whether a call runs in-process; the rest go to the gateway. */
  runsLocally: (call: ToolCallIR) => boolean;
}

function isLocalTools<TTools extends LoopTools>(
  execute: ToolExecutor | LocalTools<TTools> | undefined,
): execute is LocalTools<TTools> {
  return execute !== undefined && Array.isArray((execute as Partial<LocalTools<TTools>>).tools);
}

/**
 * A run records the calls the gateway executes; calls run in-process (local tools, the answers of
 * a tool search) would be missing from its transcript, so a resumed loop could not replay them.
 */
function assertRunnableOnRun<TTools extends LoopTools, TRegistry extends RegistryToolTypes>(
  options: ToolLoopOptions<object, TTools, TRegistry>,
): void {
  const refuse = (why: string): never => {
    throw new ToolgateSdkError('invalid_options', `runToolLoop with \`run\` ${why}`);
  };
  if (options.gateway === undefined) refuse('needs a gateway (Toolgate#runToolLoop)');
  if (options.execute !== undefined) {
    refuse(
      'cannot take `execute`: the run records only calls the gateway executes, so local calls would be missing when it resumes',
    );
  }
  if (options.toolSearch !== undefined) {
    refuse('cannot take `toolSearch`: the run would not record the searches it answers');
  }
  if (options.conversationId !== undefined) {
    refuse('takes no `conversationId`: the run groups its calls under its own (runs.create)');
  }
}

function startRun<TTools extends LoopTools, TRegistry extends RegistryToolTypes>(
  options: ToolLoopOptions<object, TTools, TRegistry>,
): LoopRun<TTools, TRegistry> {
  const { execute, gateway } = options;
  if (execute === undefined && gateway === undefined) {
    throw new ToolgateSdkError(
      'invalid_options',
      'runToolLoop needs `execute` (local tools) or a gateway (Toolgate#runToolLoop)',
    );
  }
  if (options.run !== undefined) assertRunnableOnRun(options);
  const local = isLocalTools(execute) ? execute : undefined;
  const localNames = new Set(local?.tools.map((tool) => tool.name) ?? []);
  const tools = options.tools ?? local?.tools;
  return {
    options,
    dialect: loopDialect(options.provider),
    typedNames: local === undefined ? new Set() : localNames,
    registryNames: gateway?.typedToolNames ?? new Set(),
    parseOptions: tools === undefined ? {} : { tools },
    // A plain executor, or no gateway, runs everything; `localTools` beside a gateway runs its own.
    runsLocally:
      execute === undefined
        ? () => false
        : gateway === undefined || local === undefined
          ? () => true
          : (call) => localNames.has(call.name),
  };
}

/** Runs one step's calls where they belong and returns one outcome per call, parse failures last. */
async function executeStep<TTools extends LoopTools, TRegistry extends RegistryToolTypes>(
  run: LoopRun<TTools, TRegistry>,
  input: {
    response: unknown;
    request: object;
    step: number;
    searching: boolean;
    partialStates: PartialStateRecorder | undefined;
    /** The durable run the calls are posted to as its next turn. */
    onRun: LoopOnRun | undefined;
  },
): Promise<{ outcomes: StepOutcome[]; calls: ToolCallIR[]; search: SearchAnswer | undefined }> {
  const { options, dialect } = run;
  const adapter = getAdapter(options.provider as Provider);
  const parsed = adapter.parseCalls(input.response, run.parseOptions);
  const search =
    input.searching && options.toolSearch !== undefined
      ? await options.toolSearch.answer(input.response)
      : undefined;
  const byId = new Map<string, { result: ToolResultIR; executedBy: ToolCallExecutor }>();
  for (const result of search?.toolResults ?? []) {
    byId.set(result.call_id, { result, executedBy: 'search' });
  }
  const plan: StepPlan = { local: [], remote: [] };
  for (const call of parsed.calls) {
    if (byId.has(call.id)) continue;
    (run.runsLocally(call) ? plan.local : plan.remote).push(call);
  }
  if (plan.local.length > 0 && options.execute !== undefined) {
    const context = {
      provider: options.provider,
      step: input.step,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    const results = await options.execute(plan.local, context);
    plan.local.forEach((call, index) => {
      const result = results[index];
      if (result !== undefined) byId.set(call.id, { result, executedBy: 'local' });
    });
  }
  if (plan.remote.length > 0 && options.gateway !== undefined) {
    const client = options.gateway;
    // The whole response when every call is the gateway's (it reads the provider's own turn);
    // otherwise only its calls, in the same wire format.
    const whole = plan.remote.length === parsed.calls.length && parsed.errors.length === 0;
    const partialStates = input.partialStates?.byCall(plan.remote.map((call) => call.id)) ?? {};
    const turn = {
      provider: options.provider,
      payload: whole ? input.response : adapter.callsToWire(plan.remote),
      // The versions of the export the offered tools came from: the calls run what the model saw.
      ...client.versionsOf(dialect.offered(input.request)),
      ...(Object.keys(partialStates).length === 0 ? {} : { partialStates }),
    };
    const executed =
      input.onRun === undefined
        ? await client.execute({
            ...turn,
            idempotencyKey: newIdempotencyKey(),
            ...(options.conversationId === undefined
              ? {}
              : { conversationId: options.conversationId }),
            ...(options.signal === undefined ? {} : { signal: options.signal }),
          })
        : await postTurn(client.runs, input.onRun, { turn, signal: options.signal });
    // The gateway answers in the order of the calls it was sent.
    plan.remote.forEach((call, index) => {
      const result = executed.toolResults[index];
      if (result !== undefined) {
        byId.set(call.id, { result: { ...result, call_id: call.id }, executedBy: 'gateway' });
      }
    });
  }
  const outcomes: StepOutcome[] = parsed.calls.map((call) => {
    const done = byId.get(call.id);
    if (done === undefined) {
      throw new ToolgateInvalidResponseError(
        `the call ${call.id} (${call.name}) got no result from its executor`,
        { issues: [`expected one result per call, got none for ${call.id}`] },
      );
    }
    const typedBy = done.executedBy === 'gateway' ? run.registryNames : run.typedNames;
    return { call, ...done, typed: typedBy.has(call.name) };
  });
  // Calls whose arguments were not JSON never run: the model gets an invalid_arguments result to fix them.
  for (const error of parsed.errors) {
    const result = invalidArgumentsResult(error);
    const call: ToolCallIR = { id: result.call_id, name: result.name, arguments: {} };
    outcomes.push({ call, result, executedBy: 'none', typed: false });
  }
  return { outcomes, calls: parsed.calls, search };
}

type SearchAnswer = Awaited<ReturnType<LoopToolSearch['answer']>>;

/**
 * The conversation after a step: the model's turn and the results, and what its searches found.
 * Responses loads found tools through the `tool_search_output` items that follow the turn;
 * elsewhere the search answers are tool results and the found tools join the request's tools.
 */
function nextRequest(
  run: { options: { provider: string }; dialect: LoopDialect },
  request: object,
  step: { turn: ModelTurn; results: unknown; search: SearchAnswer | undefined },
): object {
  const { turn, results, search } = step;
  if (search === undefined) return appendTurn(run.dialect, request, { turn, results });
  if (run.options.provider === 'openai-responses') {
    return appendTurn(run.dialect, request, {
      turn,
      results: [...asList(search.output), ...asList(results)],
    });
  }
  const appended = appendTurn(run.dialect, request, { turn, results });
  const known = new Set(run.dialect.offered(appended).map((tool) => JSON.stringify(tool)));
  // Each tool once, also when two searches of the turn found it.
  const fresh = search.tools.filter((tool) => {
    const text = JSON.stringify(tool);
    if (known.has(text)) return false;
    known.add(text);
    return true;
  });
  return fresh.length === 0 ? appended : run.dialect.offer(appended, fresh);
}

/** What one model call gave: its response, and how its calls' arguments grew when that was recorded. */
interface ModelAnswer {
  response: unknown;
  partialStates?: PartialStateRecorder;
}

/** How one model call is made: at once, or as a stream whose events the loop passes on. */
type ModelCall = (
  request: object,
  step: number,
) => AsyncGenerator<ToolCallStreamEvent & { step: number }, ModelAnswer, undefined>;

/** The loop itself, streaming or not: yields the model's events and each step, returns where it ended. */
async function* loop<TTools extends LoopTools, TRegistry extends RegistryToolTypes>(
  run: LoopRun<TTools, TRegistry>,
  callModel: ModelCall,
): AsyncGenerator<
  ToolLoopEvent<object, TTools, TRegistry>,
  ToolLoopResult<object, TTools, TRegistry>,
  undefined
> {
  const { options, dialect } = run;
  const { maxSteps = 10 } = options;
  const stopWhen =
    options.stopWhen === undefined
      ? []
      : typeof options.stopWhen === 'function'
        ? [options.stopWhen]
        : options.stopWhen;
  let request: object = options.request;
  let durable: LoopOnRun | undefined;
  if (options.run !== undefined && options.gateway !== undefined) {
    // The run's earlier turns, after the app's messages: a stopped process goes on where it was.
    const resumed = await onRun(options.gateway.runs, {
      runId: options.run.id,
      format: options.provider,
      signal: options.signal,
    });
    durable = resumed.run;
    request = dialect.extend(request, resumed.messages);
  }
  const steps: Array<ToolLoopStep<TTools, TRegistry>> = [];
  const ended = (
    response: unknown,
    turn: ModelTurn,
    stopped: ToolLoopResult<object, TTools, TRegistry>['stopped'],
  ): ToolLoopResult<object, TTools, TRegistry> => ({
    final: response,
    text: turn.text,
    request,
    steps,
    stopped,
  });
  for (;;) {
    if (options.signal?.aborted === true) {
      // One error type for every way the SDK stops on the caller's signal (see the transport).
      throw new ToolgateSdkError(
        'aborted',
        `the tool loop was aborted before step ${steps.length}`,
        {
          cause: options.signal.reason,
        },
      );
    }
    const step = steps.length;
    const prepared = (await options.prepareStep?.({ stepNumber: step, steps, request })) ?? request;
    const { response, partialStates } = yield* callModel(prepared, step);
    const turn = dialect.read(response);
    const searching = options.toolSearch?.asks(response) === true;
    if (!turn.hasToolCalls && !searching) return ended(response, turn, 'final');
    if (step >= maxSteps) return ended(response, turn, 'max_steps');
    const { outcomes, calls, search } = await executeStep(run, {
      response,
      request: prepared,
      step,
      searching,
      partialStates,
      onRun: durable,
    });
    const results = outcomes.map((outcome) => outcome.result);
    const toolStep: ToolLoopStep<TTools, TRegistry> = {
      calls,
      results,
      ...typeStep<TTools, TRegistry>(outcomes),
      text: turn.text,
    };
    steps.push(toolStep);
    options.onStep?.(toolStep);
    // The calls tell which results answer free-text calls (Responses answers those as custom items).
    const wire = getAdapter(options.provider as Provider).resultsToWire(results, { calls });
    request = nextRequest(run, request, { turn, results: wire, search });
    yield { type: 'step_finish', step, toolStep };
    if (await anyStopCondition(stopWhen, { steps })) return ended(response, turn, 'stop_condition');
  }
}

/**
 * Calls the model, executes its tool calls (in-process via `execute`, else through `gateway`, or
 * both: `localTools`' own tools here, the rest through the gateway), appends the model's turn and
 * the results to the conversation in the provider's format, and repeats until the model answers
 * without tool calls, a `stopWhen` condition holds, or `maxSteps` turns of tools ran (then it
 * returns `stopped: 'max_steps'` instead of throwing, so the conversation so far is not lost).
 */
export async function runToolLoop<
  TRequest extends object,
  const TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
>(
  options: ToolLoopOptions<TRequest, TTools, TRegistry>,
): Promise<ToolLoopResult<TRequest, TTools, TRegistry>> {
  // The loop only hands requests on; it reads them through the dialect, never as TRequest.
  const run = startRun(options as unknown as ToolLoopOptions<object, TTools, TRegistry>);
  const { dialect } = run;
  // eslint-disable-next-line require-yield -- a call at once has no events to pass on
  const callModel: ModelCall = async function* (request) {
    return { response: await dialect.call(options.client, request) };
  };
  return inLoopSpan(
    options.tracer,
    {
      name: 'toolgate.tool_loop',
      attributes: {
        'toolgate.provider.format': options.provider,
        ...(options.conversationId === undefined
          ? {}
          : { 'gen_ai.conversation.id': options.conversationId }),
        ...(options.run === undefined ? {} : { 'toolgate.run.id': options.run.id }),
      },
    },
    async (span) => {
      const events = loop(run, callModel);
      for (;;) {
        const next = await events.next();
        if (next.done === true) {
          span?.setAttributes({
            'toolgate.loop.steps': next.value.steps.length,
            'toolgate.loop.stopped': next.value.stopped,
          });
          // The loop hands back the request it was given, grown: of the caller's type.
          return next.value as ToolLoopResult<TRequest, TTools, TRegistry>;
        }
      }
    },
  );
}

/**
 * `runToolLoop` on the provider's streaming API: yields the model's text and tool calls as they
 * arrive (`text_delta`, `tool_call_start` / `tool_call_delta` / `tool_call_end`, each with its
 * `step`), a `step_finish` when a step's calls have run, and last a `finish` with the result.
 * Leaving the loop early closes the model's stream.
 */
export async function* streamToolLoop<
  TRequest extends object,
  const TTools extends LoopTools = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
>(
  options: StreamToolLoopOptions<TRequest, TTools, TRegistry>,
): AsyncGenerator<ToolLoopEvent<TRequest, TTools, TRegistry>, void, undefined> {
  const run = startRun(options as unknown as ToolLoopOptions<object, TTools, TRegistry>);
  const { dialect } = run;
  const provider = options.provider;
  const callModel: ModelCall = async function* (request, step) {
    const parser = createToolCallStream(provider, run.parseOptions);
    const assembler = createResponseAssembler(provider);
    // Per step: call ids are the model's, and only one turn's calls are posted together.
    const recorder =
      options.partialStates === undefined ? undefined : recordPartialStates(options.partialStates);
    const passOn = (events: readonly ToolCallStreamEvent[]) =>
      observed(events, recorder).map((event) => ({ ...event, step }));
    for await (const event of await dialect.stream(options.client, request)) {
      assembler.push(event);
      yield* passOn(parser.push(event));
    }
    yield* passOn(parser.end());
    return {
      response: assembler.response(),
      ...(recorder === undefined ? {} : { partialStates: recorder }),
    };
  };
  // Delegated, so leaving early closes the loop and with it the model's stream. The loop hands
  // back the request it was given, grown: of the caller's type.
  const result = yield* loop(run, callModel) as unknown as AsyncGenerator<
    ToolLoopEvent<TRequest, TTools, TRegistry>,
    ToolLoopResult<TRequest, TTools, TRegistry>,
    undefined
  >;
  yield { type: 'finish', result };
}
