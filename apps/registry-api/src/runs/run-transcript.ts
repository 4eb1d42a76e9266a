import { getAdapter, type AdapterByProvider } from '@toolgate/adapters';
import type { TranscriptQuery } from '@toolgate/contract';
import { FINAL_CALL_STATUSES } from '@toolgate/persistence';
import type { ToolCallIR, ToolResultIR } from '@toolgate/toolir';
import { wireResultOf } from '../calls/calls.service';
import type { StepCalls } from './run-advancer';

/** One step of the transcript in IR: the model's calls and the results of those that ended. */
export interface TranscriptTurn {
  calls: ToolCallIR[];
  results: ToolResultIR[];
}

/** The run's tool history in IR, from its steps' call records, in the order they were made. */
export function transcriptTurnsOf(steps: readonly StepCalls[]): TranscriptTurn[] {
  return steps
    .filter((entry) => entry.calls.length > 0)
    .map(({ calls }) => ({
      calls: calls.map((row) => ({
        id: row.providerCallId,
        name: row.toolName,
        arguments: row.arguments,
      })),
      results: calls
        .filter((row) => FINAL_CALL_STATUSES.includes(row.status))
        .map((row) => wireResultOf(row)),
    }));
}

type TranscriptFormat = TranscriptQuery['format'];
type ElementOf<TWire> = TWire extends ReadonlyArray<infer TElement> ? TElement : TWire;

/** One message (OpenAI Responses: one input item) of a transcript in a provider's format. */
export type TranscriptMessage<TFormat extends TranscriptFormat> =
  | ElementOf<ReturnType<AdapterByProvider[TFormat]['callsToWire']>>
  | ElementOf<ReturnType<AdapterByProvider[TFormat]['resultsToWire']>>;

/**
 * The transcript as one provider's messages: per turn the assistant's tool calls, then the
 * results, each converted by that provider's adapter (OpenAI Responses gives input items).
 */
export function transcriptMessages<TFormat extends TranscriptFormat>(
  turns: readonly TranscriptTurn[],
  format: TFormat,
): Array<TranscriptMessage<TFormat>> {
  const adapter = getAdapter(format);
  return turns.flatMap((turn) => {
    const calls: unknown = adapter.callsToWire(turn.calls);
    const results: unknown =
      turn.results.length === 0 ? [] : adapter.resultsToWire(turn.results, { calls: turn.calls });
    // Each adapter's own output, one message (or item) at a time.
    return [...asMessages(calls), ...asMessages(results)] as Array<TranscriptMessage<TFormat>>;
  });
}

function asMessages(wire: unknown): unknown[] {
  return Array.isArray(wire) ? wire : [wire];
}
