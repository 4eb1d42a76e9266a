// @vitest-environment happy-dom
import type { ConsoleRole, Run, RunStepCall, RunTranscript } from '@toolgate/contract';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { PathParamsContext } from 'next/dist/shared/lib/hooks-client-context.shared-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../../components/session';
import { formatMs } from '../../../lib/format';
import { problem, respond, stubFetch, type Responder } from '../../../lib/testing/stub-fetch';
import {
  callId,
  callRecordOf,
  COMPENSATING_RUN,
  FAILED_RUN,
  RUN_ID,
  stepCall,
  TOOL_NAMES,
  TOOLS,
  toolVersionOf,
} from '../__fixtures__/runs';
import RunPage from './page';

let restore: () => void = () => undefined;
afterEach(() => {
  cleanup();
  restore();
});

const TRANSCRIPT: RunTranscript = {
  format: 'openai-chat',
  messages: [{ role: 'assistant', content: null, tool_calls: [] }],
};

/**
 * Answers a run action with `run`, which GET /v1/runs/{id} answers from then on, as the API
 * would.
 */
function actionAnswering(action: string, status: number, run: Run): Responder {
  return (request) => {
    if (request.method !== 'POST' || request.url !== `/v1/runs/${RUN_ID}/${action}`)
      return undefined;
    current = run;
    return { status, body: run };
  };
}

let current: Run;

/** The run page of `run` for a person with `role`. */
function showRun(
  run: Run,
  {
    role = 'admin',
    answers = [],
  }: {
    role?: ConsoleRole;
    answers?: Responder[];
  } = {},
) {
  current = run;
  const calls = [...run.steps.flatMap((step) => step.calls)];
  const network = stubFetch(
    ...answers,
    (request) =>
      request.method === 'GET' && request.url === `/v1/runs/${RUN_ID}`
        ? { status: 200, body: current }
        : undefined,
    respond(['GET', `/v1/runs/${RUN_ID}/transcript?*`], 200, TRANSCRIPT),
    ...calls.map((call) => respond(['GET', `/v1/calls/${call.id}`], 200, callRecordOf(call))),
    ...TOOL_NAMES.map((name) =>
      respond(['GET', `/v1/tools/${TOOLS[name].id}/versions/1.0.0`], 200, toolVersionOf(name)),
    ),
  );
  restore = network.restore;
  const user = { id: '4c1d2e3f-0a1b-4c2d-8e3f-5a6b7c8d9e0f', email: 'a@x.io', name: 'A', role };
  render(
    <SessionProvider value={{ user, signOut: () => undefined }}>
      <PathParamsContext.Provider value={{ runId: RUN_ID }}>
        <RunPage />
      </PathParamsContext.Provider>
    </SessionProvider>,
  );
  return network;
}

const stepItem = (name: string) => screen.getByRole('listitem', { name: `Step ${name}` });

describe('the run page', () => {
  it('shows the steps as a timeline in position order, each with its checkpoints and calls', async () => {
    showRun({ ...FAILED_RUN, steps: [...FAILED_RUN.steps].reverse() });
    await screen.findByRole('heading', { name: /Run 7a1d2c3b/ });
    const header = document.querySelector('.page-header')!;
    expect(header.textContent).toContain('plan mode');
    expect(header.textContent).toContain('compensation manual');
    expect(header.textContent).toContain('conversation conv_42');
    expect(header.textContent).toContain(
      'Stopped at step ship: upstream_unavailable label service 503',
    );

    const steps = within(screen.getByRole('region', { name: 'Steps' })).getAllByRole('listitem', {
      name: /^Step /,
    });
    expect(steps.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Step find',
      'Step charge',
      'Step ship',
      'Step notify',
    ]);
    const ship = stepItem('ship');
    expect(ship.textContent).toContain('attempt 1 · after charge');
    expect(ship.textContent).toContain(`took ${formatMs(1500)}`);
    expect(ship.textContent).toContain(`${formatMs(4000)} after the run began`);
    const label = within(ship).getByRole('link', { name: 'create_label@1.0.0' });
    expect(label.getAttribute('href')).toBe(`/calls/${FAILED_RUN.steps[2]!.calls[1]!.id}`);
    expect(label.parentElement!.textContent).toContain('failed upstream_unavailable');
    expect(stepItem('notify').textContent).toContain('Not started.');
  });

  it('shows compensation steps linked to the call they undo, and what cannot be undone', async () => {
    showRun(COMPENSATING_RUN);
    const undo = await screen.findByRole('listitem', { name: 'Step compensate:ship:0' });
    expect(undo.textContent).toContain('compensation');
    expect(undo.textContent).toContain('Undoes call 0c8e5d04 (reserve_stock@1.0.0) of step ship');
    expect(within(undo).getByRole('link', { name: '0c8e5d04' }).getAttribute('href')).toBe(
      `/calls/${COMPENSATING_RUN.steps[2]!.calls[0]!.id}`,
    );

    expect(document.querySelector('.page-header')!.textContent).toContain(
      '1 completed call cannot be undone: see Compensations.',
    );
    // Each step's calls say what became of them.
    const charge = within(stepItem('charge')).getAllByRole('listitem');
    expect(charge[0]!.textContent).toContain('undone by compensate:charge:0 (pending)');
    expect(charge[1]!.textContent).toContain(
      'cannot be undone: send_email@1.0.0 declares no compensation',
    );
    const section = screen.getByRole('region', { name: 'Compensations' });
    expect(section.textContent).toContain('Asked by user:admin@example.com');
    expect(section.textContent).toContain('scope run · after step ship failed');
    const stuck = within(section).getByRole('note');
    expect(stuck.textContent).toContain('1 call cannot be undone');
    expect(stuck.textContent).toContain(
      'send_email@1.0.0 of step charge: send_email@1.0.0 declares no compensation',
    );
    expect(section.textContent).toContain(
      'compensate:charge:0 pending undoes charge_card@1.0.0 of step charge',
    );
  });

  it('compensates the failed step or the whole run, saying first what will be undone', async () => {
    const { sent } = showRun(FAILED_RUN, {
      answers: [actionAnswering('compensate', 202, COMPENSATING_RUN)],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Compensate…' }));
    const confirm = screen.getByRole('group', { name: 'Confirm: compensate' });
    // The failed step's own completed write: reserve_stock, undone by release_stock.
    expect(
      (await within(confirm).findByText(/This runs 1 compensating call; 0 calls cannot be undone/))
        .textContent,
    ).toBeTruthy();
    expect(confirm.textContent).toContain(
      'release_stock undoes reserve_stock@1.0.0 (step ship, call 0c8e5d04)',
    );

    fireEvent.click(within(confirm).getByLabelText('the whole run (every step)'));
    await within(confirm).findByText(
      /This runs 2 compensating calls, latest first; 1 call cannot be undone/,
    );
    expect(confirm.textContent).toContain('1 read changed nothing');
    const order = within(confirm)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(order).toEqual([
      'release_stock undoes reserve_stock@1.0.0 (step ship, call 0c8e5d04)',
      'refund_card undoes charge_card@1.0.0 (step charge, call 0c8e5d02)',
      'Cannot be undone: send_email@1.0.0 (step charge, call 0c8e5d03) — send_email@1.0.0 declares no compensation',
    ]);

    fireEvent.click(within(confirm).getByRole('button', { name: 'Yes, compensate' }));
    expect(
      (
        await screen.findByText(
          /Compensation asked: 2 compensation steps added; 1 call cannot be undone/,
        )
      ).textContent,
    ).toBeTruthy();
    const post = sent.find((request) => request.method === 'POST')!;
    expect(post.url).toBe(`/v1/runs/${RUN_ID}/compensate`);
    expect(post.body).toEqual({ scope: 'run', step: 'ship' });
  });

  it('forecasts the undos in the reverse order the calls finished, as the gateway runs them', async () => {
    // Two reservations of one step ran side by side; the first one finished last.
    const ship = FAILED_RUN.steps[2]!;
    const second = { ...stepCall(7, 'reserve_stock'), index: 1 };
    const run: Run = {
      ...FAILED_RUN,
      steps: FAILED_RUN.steps.map((step) =>
        step === ship
          ? { ...ship, calls: [ship.calls[0]!, second, { ...ship.calls[1]!, index: 2 }] }
          : step,
      ),
    };
    const finished = (call: RunStepCall, at: string) =>
      respond(['GET', `/v1/calls/${call.id}`], 200, { ...callRecordOf(call), finished_at: at });
    showRun(run, {
      answers: [
        finished(ship.calls[0]!, '2026-12-06T10:00:05.900Z'),
        finished(second, '2026-12-06T10:00:05.300Z'),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Compensate…' }));
    const confirm = screen.getByRole('group', { name: 'Confirm: compensate' });
    await within(confirm).findByText(
      /This runs 2 compensating calls, latest first; 0 calls cannot be undone/,
    );
    expect(
      within(confirm)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `release_stock undoes reserve_stock@1.0.0 (step ship, call ${callId(4).slice(0, 8)})`,
      `release_stock undoes reserve_stock@1.0.0 (step ship, call ${callId(7).slice(0, 8)})`,
    ]);
  });

  it("shows a refused action's problem title and detail", async () => {
    showRun(FAILED_RUN, {
      answers: [
        respond(['POST', `/v1/runs/${RUN_ID}/compensate`], 409, {
          ...problem(409, 'Run 7a1d2c3b has nothing to undo.', { code: 'conflict' }),
          title: 'Conflict',
        }),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Compensate…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, compensate' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Conflict Run 7a1d2c3b has nothing to undo.');
    expect(alert.querySelector('strong')?.textContent).toBe('Conflict');
  });

  it('decides a stopped step: retry, skip or fail, each confirmed first', async () => {
    const { sent } = showRun(FAILED_RUN, {
      answers: [
        actionAnswering('decide', 200, {
          ...FAILED_RUN,
          status: 'running',
          failed_step: null,
          reason: null,
        }),
      ],
    });
    const decide = await screen.findByRole('group', { name: 'Decide step ship' });
    // Only the stopped step takes a decision.
    expect(screen.getAllByRole('group', { name: /^Decide step / })).toHaveLength(1);
    fireEvent.click(within(decide).getByRole('button', { name: 'Skip ship' }));
    expect(decide.textContent).toContain(
      'This marks step ship skipped; notify goes on without it.',
    );
    fireEvent.click(within(decide).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(decide).getByRole('button', { name: 'Retry ship' }));
    expect(decide.textContent).toContain('This runs step ship again (attempt 2)');
    fireEvent.click(within(decide).getByRole('button', { name: 'Yes, retry ship' }));
    await screen.findByText('Decided: retry ship; the run is running.');
    // The run went on: the step takes no more decisions, and the run can be cancelled.
    await screen.findByRole('button', { name: 'Cancel run' });
    expect(screen.queryByRole('group', { name: 'Decide step ship' })).toBeNull();
    const post = sent.find((request) => request.method === 'POST')!;
    expect(post.url).toBe(`/v1/runs/${RUN_ID}/decide`);
    expect(post.body).toEqual({ step: 'ship', action: 'retry' });
  });

  it('cancels a run that has not ended, saying how many calls it stops', async () => {
    const running: Run = {
      ...FAILED_RUN,
      status: 'awaiting_approval',
      failed_step: null,
      reason: null,
      steps: [
        FAILED_RUN.steps[0]!,
        {
          ...FAILED_RUN.steps[1]!,
          status: 'running',
          finished_at: null,
          calls: FAILED_RUN.steps[1]!.calls.map((call) => ({
            ...call,
            status: 'awaiting_approval' as const,
            result: null,
          })),
        },
      ],
    };
    const { sent } = showRun(running, {
      answers: [actionAnswering('cancel', 200, { ...running, status: 'cancelled' })],
    });
    expect(await screen.findByText(/A call waits for a person/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Compensate…' })).toBeNull();
    expect(stepItem('charge').textContent).toContain('checkpointednot yet');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel run' }));
    expect(screen.getByRole('group', { name: 'Confirm: Cancel run' }).textContent).toContain(
      'This cancels the run: its 2 unfinished calls are cancelled and no further step starts.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel run' }));
    await screen.findByText('The run was cancelled.');
    await expect
      .poll(() => document.querySelector('.page-header .badge')?.textContent)
      .toBe('cancelled');
    expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull();
    expect(
      sent.filter((request) => request.method === 'POST').map((request) => request.url),
    ).toEqual([`/v1/runs/${RUN_ID}/cancel`]);
  });

  it('offers a viewer no action', async () => {
    showRun(FAILED_RUN, { role: 'viewer' });
    await screen.findByText('Only admins can cancel, compensate or decide runs.');
    expect(screen.queryByRole('button', { name: 'Compensate…' })).toBeNull();
    expect(screen.queryByRole('group', { name: /^Decide step / })).toBeNull();
  });

  it('shows the transcript in the chosen format', async () => {
    const { sent } = showRun(FAILED_RUN);
    await screen.findByLabelText('Transcript (openai-chat)');
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'anthropic' } });
    await expect
      .poll(() => sent.map((request) => request.url))
      .toContain(`/v1/runs/${RUN_ID}/transcript?format=anthropic`);
  });
});
