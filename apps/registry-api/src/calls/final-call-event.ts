import type { CallRow } from '@toolgate/persistence';
import type { CallEvent } from './call-event-bus';
import { wireResultOf } from './calls.service';

/**
 * The event that ends a call's stream, rebuilt from its record: what the runner announced (or the
 * API, for a cancel) when the call became final, for streams that never got that announcement
 * (it was published while Redis was down). Undefined while the call is not final.
 */
export function finalEventOfRow(row: CallRow): CallEvent | undefined {
  const status = row.status;
  const at = (row.finishedAt ?? row.startedAt ?? row.createdAt).getTime();
  if (status === 'cancelled') return { type: 'cancelled', call_id: row.id, tool: row.toolName, at };
  if (status !== 'succeeded' && status !== 'failed' && status !== 'outcome_unknown')
    return undefined;
  return {
    type: 'finished',
    call_id: row.id,
    tool: row.toolName,
    at,
    ok: row.status === 'succeeded',
    status,
    ...(row.errorCode === null ? {} : { error_code: row.errorCode }),
    latency_ms: row.latencyMs ?? 0,
    result: wireResultOf(row),
  };
}
