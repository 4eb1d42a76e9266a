import {
  CALL_STATUSES,
  type Call,
  type CallStatus,
  type CallsBucket,
  type CallsMetrics,
} from '@toolgate/contract';

const HOUR = 3_600_000;
export const CALLS_FROM = Date.UTC(2026, 11, 6, 0, 0, 0);

/** A finished call as GET /v1/calls lists it. */
export function callOf(index: number, status: CallStatus = 'succeeded'): Call {
  const created = new Date(CALLS_FROM + index * 60_000).toISOString();
  return {
    id: `0b7e4c1a-5f2d-4e8b-9c3a-${String(index).padStart(12, '0')}`,
    team_id: '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90',
    status,
    provider: 'openai-chat',
    provider_call_id: `call_${index}`,
    conversation_id: null,
    tool: { id: '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11', name: 'get_forecast', version: '1.0.0' },
    arguments: { city: 'Paris' },
    arguments_hash: 'h',
    result:
      status === 'failed'
        ? {
            call_id: `call_${index}`,
            name: 'get_forecast',
            ok: false,
            error: { code: 'tool_error', message: 'upstream 500', retryable: false },
          }
        : { call_id: `call_${index}`, name: 'get_forecast', ok: true, data: { ok: 1 } },
    error_code: status === 'failed' ? 'tool_error' : null,
    attempts: 1,
    answered_by: 'get_forecast',
    latency_ms: 12,
    decision: null,
    input_check: null,
    partial_states: null,
    arguments_repair: null,
    trace_id: null,
    cache_age_ms: null,
    cost: {
      tool_usd: null,
      tokens_usd: null,
      total_usd: null,
      tool_source: null,
      tokens: null,
      model: null,
      provider: null,
      tokens_unpriced_reason: null,
    },
    created_at: created,
    started_at: created,
    finished_at: created,
  };
}

function bucket(index: number, counts: Partial<Record<CallStatus, number>>): CallsBucket {
  const byStatus = Object.fromEntries(
    CALL_STATUSES.map((status) => [status, counts[status] ?? 0]),
  ) as Record<CallStatus, number>;
  const calls = CALL_STATUSES.reduce((sum, status) => sum + byStatus[status], 0);
  const finished = byStatus.succeeded + byStatus.failed + byStatus.outcome_unknown;
  return {
    start: new Date(CALLS_FROM + index * HOUR).toISOString(),
    calls,
    by_status: byStatus,
    error_rate: finished === 0 ? null : byStatus.failed / finished,
    p50_ms: calls === 0 ? null : 40 + index,
    p95_ms: calls === 0 ? null : 200 + index,
  };
}

/** Three hourly buckets: 5 succeeded; nothing; 3 succeeded, 2 failed and 1 queued. */
export const CALLS_METRICS: CallsMetrics = {
  window: '24h',
  from: new Date(CALLS_FROM).toISOString(),
  to: new Date(CALLS_FROM + 3 * HOUR).toISOString(),
  bucket_ms: HOUR,
  buckets: [
    bucket(0, { succeeded: 5 }),
    bucket(1, {}),
    bucket(2, { succeeded: 3, failed: 2, queued: 1 }),
  ],
  tools: [
    {
      tool: 'get_forecast',
      tool_id: '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11',
      calls: 11,
      failed: 2,
      calls_per_bucket: [5, 0, 6],
      failed_per_bucket: [0, 0, 2],
    },
  ],
};
