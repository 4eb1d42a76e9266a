import type { Provider } from '@toolgate/adapters';
import {
  ToolgateApiError,
  ToolgateRunEndedError,
  ToolgateSdkError,
} from '../errors/toolgate-sdk-error';
import type { ExecuteResult } from '../toolgate-client';
import {
  assertRunGoesOn,
  ENDED_RUN_STATUSES,
  type RunTurn,
  type ToolgateRuns,
  type TranscriptFormat,
} from './runs-client';

/** Where a loop on a durable run stands: the run, and how many turns it holds (the next one's place). */
export interface LoopOnRun {
  id: string;
  turns: number;
}

/**
 * The Idempotency-Key of the run's turn at `position` (0 for its first): the same place in the
 * same run always gets the same key, so posting a turn again (a retry, or a process that lost the
 * answer) is answered with the recorded calls instead of running them twice.
 */
export function turnIdempotencyKey(runId: string, position: number): string {
  return `run:${runId}:turn:${position}`;
}

/**
 * Picks up a ReAct run where it is: refuses one that ended or runs a plan, waits for a turn a
 * stopped process left running, and reads the transcript in the loop's format, to follow the
 * request's own messages.
 */
export async function onRun(
  runs: ToolgateRuns,
  input: { runId: string; format: TranscriptFormat; signal: AbortSignal | undefined },
): Promise<{ run: LoopOnRun; messages: unknown[] }> {
  const options = input.signal === undefined ? {} : { signal: input.signal };
  const state = await runs.waitForTurns(input.runId, options);
  assertRunGoesOn(state);
  if (state.mode !== 'react') {
    throw new ToolgateSdkError(
      'invalid_options',
      `the run ${state.id} runs a plan (mode ${state.mode}); a tool loop drives a react run`,
    );
  }
  const { messages } = await runs.transcript(input.runId, input.format, options);
  return {
    run: { id: state.id, turns: state.steps.filter((step) => step.kind === 'turn').length },
    messages,
  };
}

/**
 * Posts a turn's calls as the run's next step under the key of its place, and counts it. A run
 * that ended meanwhile (the gateway refuses the turn with a conflict) throws `ToolgateRunEndedError`.
 */
export async function postTurn<TProvider extends Provider>(
  runs: ToolgateRuns,
  run: LoopOnRun,
  input: { turn: RunTurn<TProvider>; signal: AbortSignal | undefined },
): Promise<ExecuteResult<TProvider>> {
  const { turn, signal } = input;
  const options = signal === undefined ? {} : { signal };
  try {
    const executed = await runs.turn(run.id, turn, {
      ...options,
      idempotencyKey: turnIdempotencyKey(run.id, run.turns),
    });
    run.turns += 1;
    return executed;
  } catch (error) {
    if (!(error instanceof ToolgateApiError) || error.status !== 409) throw error;
    const state = await runs.get(run.id, options);
    if (ENDED_RUN_STATUSES.has(state.status)) {
      throw new ToolgateRunEndedError(state.id, state.status, { cause: error });
    }
    throw error;
  }
}
