import { defineTool } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { localTools } from './local-tools';

const fields = {
  behavior: { readonly: true, destructive: false, idempotent: true },
  constraints: { timeout_ms: 5_000 },
};
const getWeather = defineTool({
  ...fields,
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string().min(1), unit: z.enum(['c', 'f']).default('c') }),
  handler: ({ city, unit }) => ({ city, unit, temperature: 21 }),
});
const failing = defineTool({
  ...fields,
  name: 'charge_card',
  description: 'Charges a card.',
  parameters: z.object({ amount: z.number().positive() }),
  handler: () => {
    throw new Error('card declined');
  },
});
const context = { provider: 'openai-chat' as const, step: 0 };

describe('localTools', () => {
  it('validates the arguments and runs the handler with the defaults applied', async () => {
    const tools = localTools([getWeather, failing]);
    expect(tools.tools.map((tool) => tool.name)).toEqual(['get_weather', 'charge_card']);
    await expect(
      tools([{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], context),
    ).resolves.toEqual([
      {
        call_id: 'call_1',
        name: 'get_weather',
        ok: true,
        data: { city: 'Paris', unit: 'c', temperature: 21 },
      },
    ]);
  });

  it('returns an invalid_arguments result the model can read, without running the handler', async () => {
    const [result] = await localTools([getWeather])(
      [{ id: 'call_2', name: 'get_weather', arguments: { city: '', unit: 'kelvin' } }],
      context,
    );
    expect(result).toMatchObject({
      call_id: 'call_2',
      ok: false,
      error: { code: 'invalid_arguments', retryable: false },
    });
    expect(result?.error?.message).toContain('/city');
    expect(result?.error?.message).toContain('/unit');
    expect(result?.error?.details).toMatchObject({
      errors: expect.arrayContaining([expect.objectContaining({ path: '/unit' })]),
    });
  });

  it('turns a throwing handler into a tool_error result', async () => {
    const results = await localTools([failing])(
      [{ id: 'call_3', name: 'charge_card', arguments: { amount: 5 } }],
      context,
    );
    expect(results).toEqual([
      {
        call_id: 'call_3',
        name: 'charge_card',
        ok: false,
        error: { code: 'tool_error', message: 'card declined', retryable: false },
      },
    ]);
  });

  it('answers a call to an unknown tool with unknown_tool', async () => {
    const results = await localTools([getWeather])(
      [{ id: 'call_4', name: 'delete_everything', arguments: {} }],
      context,
    );
    expect(results[0]).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
  });

  it("runs calls one after another in the model's order", async () => {
    const order: string[] = [];
    const slow = defineTool({
      ...fields,
      name: 'slow',
      description: 'Slow.',
      parameters: z.object({ label: z.string() }),
      handler: async ({ label }) => {
        await new Promise((resolve) => setTimeout(resolve, label === 'a' ? 30 : 1));
        order.push(label);
        return label;
      },
    });
    await localTools([slow])(
      [
        { id: '1', name: 'slow', arguments: { label: 'a' } },
        { id: '2', name: 'slow', arguments: { label: 'b' } },
      ],
      context,
    );
    expect(order).toEqual(['a', 'b']);
  });

  it('runs a tool that needs approval only when approve says yes, and never without approve', async () => {
    const runs: string[] = [];
    const deleteOrder = defineTool.destructive({
      name: 'delete_order',
      description: 'Deletes an order for good.',
      parameters: z.object({ orderId: z.string() }),
      handler: ({ orderId }) => {
        runs.push(orderId);
        return { deleted: orderId };
      },
    });
    const call = (id: string, orderId: string) => ({
      id,
      name: 'delete_order',
      arguments: { orderId },
    });

    const [unapproved] = await localTools([deleteOrder])([call('c0', 'A-1')], context);
    expect(unapproved).toMatchObject({
      ok: false,
      error: { code: 'approval_denied', retryable: false },
    });
    expect(unapproved?.error?.message).toContain('needs a person');

    const asked: string[] = [];
    const approving = localTools([deleteOrder], {
      approve: (toolCall, tool) => {
        asked.push(`${tool.name}:${String(toolCall.arguments['orderId'])}`);
        return Promise.resolve(toolCall.arguments['orderId'] === 'A-2');
      },
    });
    const results = await approving([call('c1', 'A-2'), call('c2', 'A-3')], context);
    expect(results.map((result) => [result.ok, result.error?.code])).toEqual([
      [true, undefined],
      [false, 'approval_denied'],
    ]);
    expect(asked).toEqual(['delete_order:A-2', 'delete_order:A-3']);
    expect(runs).toEqual(['A-2']);
    // A readonly lookup is never asked about.
    await localTools([getWeather], { approve: () => false })(
      [{ id: 'c3', name: 'get_weather', arguments: { city: 'Oslo' } }],
      context,
    );
  });

  it("ends a handler past the tool's timeout_ms with a timeout result and aborts its signal", async () => {
    let aborted: unknown;
    const slow = defineTool.readonly({
      name: 'slow_lookup',
      description: 'Takes its time.',
      parameters: z.object({}),
      constraints: { timeout_ms: 40 },
      handler: (_args, { signal }) =>
        new Promise<never>(() => {
          signal?.addEventListener('abort', () => {
            aborted = signal.reason;
          });
        }),
    });
    const [result] = await localTools([slow])(
      [{ id: 'c', name: 'slow_lookup', arguments: {} }],
      context,
    );
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'timeout',
        retryable: true,
        message: 'slow_lookup did not finish within its 40 ms budget.',
      },
    });
    expect(aborted).toBeInstanceOf(Error);
  });
});
