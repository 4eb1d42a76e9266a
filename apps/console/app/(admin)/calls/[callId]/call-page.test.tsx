// @vitest-environment happy-dom
import type { Call, CallTimeline } from '@toolgate/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { PathParamsContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { formatMs } from '../../../lib/format';
import { respond, stubFetch } from '../../../lib/testing/stub-fetch';
import CallPage from './page';

const CALL_ID = '0b7e4c1a-5f2d-4e8b-9c3a-6d1f2e3a4b5c';
const GROWN: NonNullable<Call['partial_states']> = {
  entries: [
    { offset_ms: 14, pointers: ['/city'] },
    { offset_ms: 38, pointers: ['/days/0'] },
    { offset_ms: 52, pointers: ['/days/1', '/days', ''] },
  ],
  truncated: false,
};
const CALL: Call = {
  id: CALL_ID,
  team_id: '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90',
  status: 'succeeded',
  provider: 'openai-chat',
  provider_call_id: 'call_1',
  conversation_id: null,
  tool: { id: '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11', name: 'get_forecast', version: '1.0.0' },
  arguments: { city: 'Paris', days: [1, 2] },
  arguments_hash: 'h',
  result: { call_id: 'call_1', name: 'get_forecast', ok: true, data: { ok: 1 } },
  error_code: null,
  attempts: 1,
  answered_by: 'get_forecast',
  cache_age_ms: null,
  latency_ms: 12,
  decision: null,
  input_check: null,
  partial_states: GROWN,
  arguments_repair: null,
  trace_id: null,
  cost: {
    tool_usd: 0.002,
    tokens_usd: 0.001943,
    total_usd: 0.003943,
    tool_source: 'estimate',
    tokens: { input: 43, output: 150, cache_read: 960, cache_write: 0, reasoning: 96 },
    model: 'o4-mini-2025-04-16',
    provider: 'openai',
    tokens_unpriced_reason: null,
  },
  created_at: '2026-12-06T10:00:00.000Z',
  started_at: '2026-12-06T10:00:00.010Z',
  finished_at: '2026-12-06T10:00:00.022Z',
};

let restore: () => void = () => undefined;
afterEach(() => {
  cleanup();
  restore();
});

const NO_EVENTS: CallTimeline = { call_id: CALL_ID, events: [], actors: {} };
const KEY_ACTOR = 'key:d9f9ecc4-1b2c-4d5e-8f90-123456789abc';

function showCall(call: Call, timeline: CallTimeline = NO_EVENTS) {
  const network = stubFetch(
    respond(['GET', `/v1/calls/${CALL_ID}`], 200, call),
    respond(['GET', `/v1/calls/${CALL_ID}/timeline`], 200, timeline),
  );
  restore = network.restore;
  render(
    <PathParamsContext.Provider value={{ callId: CALL_ID }}>
      <CallPage />
    </PathParamsContext.Provider>,
  );
}

const shownArguments = () =>
  JSON.parse(screen.getByLabelText('Arguments at this moment').textContent ?? '') as unknown;

describe('the call page', () => {
  it("names the caller in the timeline by its key's name and team", async () => {
    showCall(CALL, {
      call_id: CALL_ID,
      events: [
        {
          at: CALL.created_at,
          type: 'received',
          detail: {
            provider: 'openai-chat',
            provider_call_id: 'call_1',
            tool: 'get_forecast',
            version: '1.0.0',
            actor: KEY_ACTOR,
            conversation_id: null,
          },
        },
      ],
      actors: {
        [KEY_ACTOR]: {
          kind: 'key',
          id: 'd9f9ecc4-1b2c-4d5e-8f90-123456789abc',
          name: 'weather-app',
          team_name: 'forecasts',
        },
      },
    });
    const name = await screen.findByText('weather-app');
    expect(name.closest('[title]')?.getAttribute('title')).toBe(KEY_ACTOR);
    expect(screen.getByRole('button', { name: `Copy ${KEY_ACTOR}` })).toBeTruthy();
    expect(screen.queryByText(KEY_ACTOR)).toBeNull();
  });

  it('replays how the arguments grew, moment by moment', async () => {
    showCall(CALL);
    const scrubber = await screen.findByRole('slider', { name: 'Moment of the stream' });
    // It opens on the arguments as they were finally sent.
    expect(scrubber.getAttribute('aria-valuetext')).toBe('+52 ms, moment 3 of 3');
    expect(shownArguments()).toEqual({ city: 'Paris', days: [1, 2] });
    expect(screen.getByText('(all arguments)')).toBeTruthy();

    fireEvent.change(scrubber, { target: { value: '1' } });
    expect(shownArguments()).toEqual({ city: 'Paris' });
    expect(screen.getByText('+14 ms')).toBeTruthy();
    expect(screen.getByText('/city')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(shownArguments()).toEqual({ city: 'Paris', days: [1] });

    fireEvent.change(scrubber, { target: { value: '0' } });
    expect(shownArguments()).toEqual({});
    expect(screen.getByText(/before any value completed/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Previous' }).disabled).toBe(true);
  });

  it('says when the record stopped at its limits', async () => {
    showCall({ ...CALL, partial_states: { ...GROWN, truncated: true } });
    await screen.findByRole('slider', { name: 'Moment of the stream' });
    expect(screen.getByText(/went on past what a call may record/)).toBeTruthy();
  });

  it("shows the call's cost: tool, tokens and their model", async () => {
    showCall(CALL);
    const section = await screen.findByRole('region', { name: 'Cost' });
    expect(section.textContent).toContain('$0.003943');
    expect(section.textContent).toContain('$0.002 (estimate)');
    expect(section.textContent).toContain('(openai o4-mini-2025-04-16)');
    expect(section.textContent).toContain('cache read tokens960');
  });

  it('says why tokens are not priced, and when no usage was posted', async () => {
    const unpriced = {
      ...CALL.cost,
      tokens_usd: null,
      total_usd: 0.002,
      model: 'acme-local-7b',
      tokens_unpriced_reason: 'no price for openai model "acme-local-7b"',
    };
    showCall({ ...CALL, cost: unpriced });
    expect((await screen.findByRole('region', { name: 'Cost' })).textContent).toContain(
      'Tokens not priced: no price for openai model "acme-local-7b"',
    );
    cleanup();
    restore();
    showCall({
      ...CALL,
      cost: { ...CALL.cost, tokens: null, tokens_usd: null, model: null, provider: null },
    });
    expect((await screen.findByRole('region', { name: 'Cost' })).textContent).toContain(
      'No token usage',
    );
  });

  it('badges a call the result cache answered, with the age of the result', async () => {
    showCall({ ...CALL, answered_by: 'cache', cache_age_ms: 1500, attempts: 0 });
    const badge = await screen.findByText(/from cache/);
    expect(badge.textContent).toBe(`from cache · ${formatMs(1500)} old`);
  });

  it('shows no cache badge on a call that executed', async () => {
    showCall(CALL);
    await screen.findByText('get_forecast');
    expect(screen.queryByText(/from cache/)).toBeNull();
  });

  it('shows no replay for a call posted without partial states', async () => {
    showCall({ ...CALL, partial_states: null });
    await screen.findByText('get_forecast');
    expect(screen.queryByRole('slider')).toBeNull();
  });
});
