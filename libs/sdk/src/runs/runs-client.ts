import type { Provider } from '@toolgate/adapters';
import {
  FINAL_RUN_STATUSES,
  routes,
  routeUrl,
  type Run,
  type RunPage,
  type RunStatus,
  type RunTranscript,
  type RouteDefinition,
  type RouteRequest,
  type TranscriptQuery,
} from '@toolgate/contract';
import { readGatewayAnswer, type RouteSuccess } from '../transports/gateway-answer';
import type { HttpTransport } from '../transports/http-transport';
import type { CallEvent } from '../transports/call-events';
import type { ExecuteOptions, ExecuteResult } from '../toolgate-client';
import { ToolgateRunEndedError } from '../errors/toolgate-sdk-error';

/** The statuses a run does not leave: it takes no further turn or plan. */
export const ENDED_RUN_STATUSES: ReadonlySet<RunStatus> = new Set<RunStatus>(FINAL_RUN_STATUSES);

/** Throws `ToolgateRunEndedError` when the run has ended. */
export function assertRunGoesOn(run: Pick<Run, 'id' | 'status'>): void {
  if (ENDED_RUN_STATUSES.has(run.status)) {
    throw new ToolgateRunEndedError(run.id, run.status);
  }
}

/** What `runs.create()` takes: the run's mode, and the app's conversation id and metadata. */
export type CreateRunRequest = RouteRequest<typeof routes.createRun>['body'];
/** What `runs.list()` filters and pages by. */
export type ListRunsRequest = NonNullable<RouteRequest<typeof routes.listRuns>['query']>;
/** A plan-mode run's plan: named steps of calls, with dependencies and `$ref` arguments. */
export type RunPlanRequest = RouteRequest<typeof routes.createRunPlan>['body'];
/** What to do with a step whose outcome is unknown (or that failed). */
export type RunDecisionRequest = RouteRequest<typeof routes.decideRun>['body'];
/** Which completed writes `runs.compensate()` undoes: a step's (default the failed one), or the run's. */
export type CompensateRunRequest = RouteRequest<typeof routes.compensateRun>['body'];
/** A provider whose messages a transcript can be written in. */
export type TranscriptFormat = TranscriptQuery['format'];

/** One model turn of a ReAct run: what `POST /v1/calls` takes, as `execute()` names it. */
export type RunTurn<TProvider extends Provider> = Pick<
  ExecuteOptions<TProvider>,
  'provider' | 'payload' | 'waitMs' | 'snapshot' | 'pins' | 'partialStates'
>;

/** How a turn is posted and its calls followed. */
export interface RunTurnOptions {
  /**
   * Names the turn: a repeat with the same key answers with the same step and its recorded calls,
   * never running them again; the POST is retried only with one.
   */
  idempotencyKey?: string;
  /** Gives up following the calls' event streams after this long (after a 202). */
  followTimeoutMs?: number;
  /** Every event of the calls being followed (after a 202). */
  onEvent?: (event: CallEvent) => void;
  signal?: AbortSignal;
}

/** Options of every runs request. */
export interface RunRequestOptions {
  signal?: AbortSignal;
}

/** What the runs client needs of the Toolgate client: its transport, and how it posts calls. */
export interface RunsHost {
  transport: HttpTransport;
  submitTurn<TProvider extends Provider>(
    path: string,
    turn: RunTurn<TProvider>,
    options: RunTurnOptions,
  ): Promise<ExecuteResult<TProvider>>;
  /** Follows calls' event streams until each has ended. */
  followCalls(
    callIds: readonly string[],
    options: Pick<RunTurnOptions, 'followTimeoutMs' | 'onEvent' | 'signal'>,
  ): Promise<void>;
}

/** A request of one runs route: its URL parts and body, and whether it may be repeated. */
interface RunsRequest<TRoute extends RouteDefinition> {
  route: TRoute;
  params?: RouteRequest<TRoute>['params'];
  query?: RouteRequest<TRoute>['query'];
  body?: RouteRequest<TRoute>['body'];
  safeToRetry: boolean;
  signal: AbortSignal | undefined;
}

/**
 * Durable runs (`/v1/runs`): a run checkpoints each step on the gateway, so the app that drives
 * it may stop and go on later, in another process, from the run's state and transcript.
 */
export class ToolgateRuns {
  constructor(private readonly host: RunsHost) {}

  /** Starts a run (`POST /v1/runs`): `react` takes the app's model turns, `plan` a plan of steps. */
  async create(input: CreateRunRequest, options: RunRequestOptions = {}): Promise<Run> {
    // Not repeated: a second POST would start a second run.
    return this.send({
      route: routes.createRun,
      body: input,
      safeToRetry: false,
      signal: options.signal,
    });
  }

  /** The run's state: its status, and its steps with their calls and results. */
  async get(runId: string, options: RunRequestOptions = {}): Promise<Run> {
    return this.send({
      route: routes.getRun,
      params: { runId },
      safeToRetry: true,
      signal: options.signal,
    });
  }

  /** A page of the team's runs, newest first (`nextCursor` in `next_cursor`). */
  async list(query: ListRunsRequest = {}, options: RunRequestOptions = {}): Promise<RunPage> {
    return this.send({ route: routes.listRuns, query, safeToRetry: true, signal: options.signal });
  }

  /**
   * Executes one model turn on a ReAct run (`POST /v1/runs/{runId}/turns`), as `execute()` does
   * on `POST /v1/calls`: the turn becomes the run's next checkpointed step.
   */
  async turn<TProvider extends Provider>(
    runId: string,
    turn: RunTurn<TProvider>,
    options: RunTurnOptions = {},
  ): Promise<ExecuteResult<TProvider>> {
    const path = routeUrl(routes.createRunTurn, { params: { runId } });
    return this.host.submitTurn(path, turn, options);
  }

  /**
   * Waits until no turn of the run is still running (following its calls' event streams, as the
   * process that posted the turn would have) and answers the run: after a restart, what a
   * transcript read next holds every result.
   */
  async waitForTurns(
    runId: string,
    options: Pick<RunTurnOptions, 'followTimeoutMs' | 'onEvent' | 'signal'> = {},
  ): Promise<Run> {
    const run = await this.get(runId, options);
    const open = run.steps.filter((step) => step.kind === 'turn' && step.status === 'running');
    if (open.length === 0) return run;
    await this.host.followCalls(
      open.flatMap((step) => step.calls.map((call) => call.id)),
      options,
    );
    return this.get(runId, options);
  }

  /** The run's tool history (each turn's calls, then their results) as one provider's messages. */
  async transcript<TFormat extends TranscriptFormat>(
    runId: string,
    format: TFormat,
    options: RunRequestOptions = {},
  ): Promise<RunTranscript & { format: TFormat }> {
    const transcript = await this.send({
      route: routes.getRunTranscript,
      params: { runId },
      query: { format },
      safeToRetry: true,
      signal: options.signal,
    });
    return { ...transcript, format };
  }

  /** Posts (or re-posts) a plan-mode run's plan; the gateway runs it and the run answers how far it got. */
  async plan(runId: string, plan: RunPlanRequest, options: RunRequestOptions = {}): Promise<Run> {
    return this.send({
      route: routes.createRunPlan,
      params: { runId },
      body: plan,
      safeToRetry: false,
      signal: options.signal,
    });
  }

  /** Retries, skips or fails a step whose outcome is unknown (or that failed). */
  async decide(
    runId: string,
    decision: RunDecisionRequest,
    options: RunRequestOptions = {},
  ): Promise<Run> {
    return this.send({
      route: routes.decideRun,
      params: { runId },
      body: decision,
      safeToRetry: false,
      signal: options.signal,
    });
  }

  /** Cancels the run: its unfinished calls are cancelled and no further step starts. */
  async cancel(runId: string, options: RunRequestOptions = {}): Promise<Run> {
    return this.send({
      route: routes.cancelRun,
      params: { runId },
      safeToRetry: false,
      signal: options.signal,
    });
  }

  /** Ends a ReAct run at the model's final answer: it succeeds and takes no more turns. */
  async complete(runId: string, options: RunRequestOptions = {}): Promise<Run> {
    return this.send({
      route: routes.completeRun,
      params: { runId },
      safeToRetry: false,
      signal: options.signal,
    });
  }

  /** Undoes completed writes of the failed step (or of `body.step`, or of the whole run with `scope: 'run'`). */
  async compensate(
    runId: string,
    body: CompensateRunRequest = {},
    options: RunRequestOptions = {},
  ): Promise<Run> {
    return this.send({
      route: routes.compensateRun,
      params: { runId },
      body,
      safeToRetry: false,
      signal: options.signal,
    });
  }

  private async send<TRoute extends RouteDefinition>(
    request: RunsRequest<TRoute>,
  ): Promise<RouteSuccess<TRoute>['body']> {
    const { route } = request;
    const path = routeUrl(route, {
      ...(request.params === undefined ? {} : { params: request.params }),
      ...(request.query === undefined ? {} : { query: request.query }),
    });
    const what = `${route.method.toUpperCase()} ${path}`;
    const answer = await this.host.transport.send(
      {
        route,
        path,
        ...(request.body === undefined ? {} : { body: request.body }),
        safeToRetry: request.safeToRetry,
        signal: request.signal,
      },
      (response) => readGatewayAnswer(route, response, what),
    );
    return answer.body;
  }
}
