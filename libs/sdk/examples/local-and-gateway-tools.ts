import Anthropic from '@anthropic-ai/sdk';
import { defineTool, localTools, stepCountIs, Toolgate } from '@toolgate/sdk';
import { z } from 'zod';

// The official client reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL when set).
const anthropic = new Anthropic();
const toolgate = new Toolgate({
  baseUrl: process.env['TOOLGATE_URL'] ?? 'http://localhost:4000',
  apiKey: process.env['TOOLGATE_API_KEY'] ?? '',
});

// A lookup in the app's own data runs in this process: `readonly` states it reads only, is safe
// to retry and needs no approval.
const getOrder = defineTool.readonly({
  name: 'get_order',
  description: 'An order of the signed-in customer: its status and where it goes.',
  parameters: z.object({ orderId: z.string().describe('The order number, e.g. A-17') }),
  handler: ({ orderId }) => ({ orderId, status: 'shipped' as const, city: 'Oslo' }),
});
const local = localTools([getOrder]);

// The registry's tools (here the weather) run through the gateway, at the versions exported.
const exported = await toolgate.tools({ format: 'anthropic', names: ['get_weather'] });

const result = await toolgate.runToolLoop({
  provider: 'anthropic',
  client: anthropic,
  request: {
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    tools: [...exported.tools, ...local.toWire('anthropic')],
    messages: [{ role: 'user', content: 'Where is my order A-17, and what is the weather there?' }],
  },
  execute: local, // get_order runs here; every other call goes to the gateway
  stopWhen: stepCountIs(4),
});

for (const step of result.steps) {
  for (const toolResult of step.toolResults) {
    // A local tool's results are typed by its name: `data` is what its handler returned.
    if (!toolResult.dynamic && toolResult.ok) {
      console.log(`order ${toolResult.data.orderId} is ${toolResult.data.status}`);
    } else {
      console.log(
        `${toolResult.name}: ${JSON.stringify(toolResult.ok ? toolResult.data : toolResult.error)}`,
      );
    }
  }
}
console.log(result.text);
