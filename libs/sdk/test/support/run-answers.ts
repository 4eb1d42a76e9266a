import type { CallsCompleted, Run, RunStep } from '@toolgate/contract';
import { CALL_IDS, TEAM_ID } from './gateway-answers';

/** Run ids are the API's uuids. */
export const RUN_ID = '5f4e3d2c-1b0a-4987-8654-3210fedcba98';

/** A run as `GET /v1/runs/{runId}` answers it, typed by the contract. */
export function runOf(fields: Partial<Run> = {}): Run {
  return {
    id: RUN_ID,
    team_id: TEAM_ID,
    mode: 'react',
    status: 'running',
    conversation_id: null,
    metadata: null,
    failed_step: null,
    reason: null,
    compensation: 'manual',
    compensations: [],
    steps: [],
    created_at: '2026-03-01T12:00:00.000Z',
    updated_at: '2026-03-01T12:00:00.000Z',
    ...fields,
  };
}

/** A ReAct turn step of a run, with one call of `get_weather`. */
export function turnStepOf(position: number, fields: Partial<RunStep> = {}): RunStep {
  return {
    name: `turn:run:${RUN_ID}:turn:${position}`,
    position,
    kind: 'turn',
    compensates: null,
    status: 'succeeded',
    attempt: 1,
    depends_on: [],
    reason: null,
    calls: [
      {
        id: CALL_IDS[position % CALL_IDS.length] ?? CALL_IDS[0],
        index: 0,
        provider_call_id: `call_${position}`,
        tool: 'get_weather',
        version: '1.0.0',
        status: 'succeeded',
        arguments: { city: 'Oslo' },
        result: { call_id: `call_${position}`, name: 'get_weather', ok: true, data: { c: 21 } },
      },
    ],
    started_at: '2026-03-01T12:00:00.000Z',
    finished_at: '2026-03-01T12:00:01.000Z',
    ...fields,
  };
}

/** A 200 answer to a turn of Anthropic calls: one tool_result per `tool_use` id. */
export function anthropicTurnAnswer(toolUseIds: readonly string[]): CallsCompleted {
  return {
    results: {
      role: 'user',
      content: toolUseIds.map((id) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: '{"c":21}',
        is_error: false,
      })),
    },
    calls: toolUseIds.map((_, index) => ({
      id: CALL_IDS[index % CALL_IDS.length] ?? CALL_IDS[0],
      status: 'succeeded',
      tool: 'get_weather',
      version: '1.0.0',
    })),
  };
}
