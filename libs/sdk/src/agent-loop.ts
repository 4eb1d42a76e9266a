import { getAdapter, invalidArgumentsResult, type Provider } from '@toolgate/adapters';
import type { ToolCallIR, ToolIR, ToolResultIR } from '@toolgate/toolir';
import { ToolgateSdkError } from './errors/toolgate-sdk-error';
import type { LocalTools, ToolExecutor } from './local-tools';
import { loopDialect } from './loop-dialects';
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

/** One model turn that asked for tools, and what they returned. */
export interface ToolLoopStep {
  calls: ToolCallIR[];
  results: ToolResultIR[];
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

/** How long the loop may run and how its tool calls are executed. */
export interface ToolLoopSettings {
  /** How many turns of tool calls are executed before the loop stops with `stopped: 'max_steps'` (default 10). */
  maxSteps?: number;
  /** Runs the calls in-process (e.g. `localTools([...])`); without it the gateway executes them. */
  execute?: ToolExecutor | LocalTools;
  /** The tools offered to the model, to map wire names back (defaults to `execute.tools` when it has them). */
  tools?: readonly ToolIR[];
  /** Sent to the gateway with every batch of calls. */
  conversationId?: string;
  /** Called after each executed step. */
  onStep?: (step: ToolLoopStep) => void;
  signal?: AbortSignal;
}

/** `Toolgate#runToolLoop`'s options: the gateway is the client itself. */
export type GatewayToolLoopOptions<TRequest> = ToolLoopTarget<TRequest> & ToolLoopSettings;

/** `runToolLoop`'s options: a local executor, or a gateway client to execute through. */
export type ToolLoopOptions<TRequest> = GatewayToolLoopOptions<TRequest> & { gateway?: Toolgate };

/** Where the loop ended: the model's final answer, or the step budget. */
export interface ToolLoopResult<TRequest> {
  /** The last model response: the final answer, or (for `max_steps`) a turn whose tool calls were not executed. */
  final: unknown;
  /** The assistant text of the last response. */
  text: string | undefined;
  /** The request with the whole conversation so far; the next turn can continue from it. */
  request: TRequest;
  steps: ToolLoopStep[];
  /** `final`: the model answered without tool calls; `max_steps`: `maxSteps` turns of tools ran and the model asked for more. */
  stopped: 'final' | 'max_steps';
}

function newIdempotencyKey(): string {
  // Web Crypto is global in browsers, workers and Node 20; a key per batch makes the POST safe to retry.
  return globalThis.crypto.randomUUID();
}

/**
 * Calls the model, executes its tool calls (in-process via `execute`, else through `gateway`), appends the model's
 * turn and the results to the conversation in the provider's format, and repeats until the model answers without
 * tool calls or `maxSteps` turns of tools ran (then it returns `stopped: 'max_steps'` instead of throwing,
 * so the conversation so far is not lost).
 */
export async function runToolLoop<TRequest extends object>(
  options: ToolLoopOptions<TRequest>,
): Promise<ToolLoopResult<TRequest>> {
  const { provider, client, maxSteps = 10, execute, gateway } = options;
  if (execute === undefined && gateway === undefined) {
    throw new ToolgateSdkError(
      'invalid_options',
      'runToolLoop needs `execute` (local tools) or a gateway (Toolgate#runToolLoop)',
    );
  }
  const dialect = loopDialect(provider);
  const adapter = getAdapter(provider as Provider);
  const tools = options.tools ?? (execute as Partial<LocalTools> | undefined)?.tools;
  const parseOptions = tools === undefined ? {} : { tools };
  let request: object = options.request;
  const steps: ToolLoopStep[] = [];
  for (;;) {
    options.signal?.throwIfAborted();
    const response = await dialect.call(client, request);
    const turn = dialect.read(response);
    if (!turn.hasToolCalls || steps.length >= maxSteps) {
      return {
        final: response,
        text: turn.text,
        request: request as TRequest,
        steps,
        stopped: turn.hasToolCalls ? 'max_steps' : 'final',
      };
    }
    const parsed = adapter.parseCalls(response, parseOptions);
    let wire: unknown;
    let results: ToolResultIR[];
    if (execute !== undefined) {
      const context = {
        provider,
        step: steps.length,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      };
      // Calls whose arguments were not JSON never run: the model gets an invalid_arguments result to fix them.
      results = [
        ...(await execute(parsed.calls, context)),
        ...parsed.errors.map(invalidArgumentsResult),
      ];
      wire = adapter.resultsToWire(results);
    } else {
      const client = gateway as Toolgate;
      const executed = await client.execute({
        provider,
        payload: response,
        // The versions of the export the offered tools came from: the calls run what the model saw.
        ...client.versionsOf(dialect.offered(request)),
        idempotencyKey: newIdempotencyKey(),
        ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      wire = executed.results;
      results =
        executed.toolResults ??
        adapter.resultsFromWire(wire, { calls: parsed.calls, ...parseOptions });
    }
    const step = { calls: parsed.calls, results };
    steps.push(step);
    options.onStep?.(step);
    request = dialect.append(request, { turn, results: wire });
  }
}
