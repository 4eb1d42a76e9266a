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
});
