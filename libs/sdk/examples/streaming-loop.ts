import OpenAI from 'openai';
import { Toolgate } from '@toolgate/sdk';

const openai = new OpenAI();
const toolgate = new Toolgate({
  baseUrl: process.env['TOOLGATE_URL'] ?? 'http://localhost:4000',
  apiKey: process.env['TOOLGATE_API_KEY'] ?? '',
});
const { tools } = await toolgate.tools({ format: 'openai-chat', names: ['get_weather'] });

// The same loop on the streaming API: text and tool calls show as they are generated.
const events = toolgate.streamToolLoop({
  provider: 'openai-chat',
  client: openai,
  request: {
    model: 'gpt-4o',
    tools,
    messages: [{ role: 'user', content: 'What is the weather in Oslo?' }],
  },
});
for await (const event of events) {
  switch (event.type) {
    case 'text_delta':
      process.stdout.write(event.text);
      break;
    case 'tool_call_start':
      console.log(`calling ${event.name}...`);
      break;
    case 'tool_call_delta':
      // `partial` is the arguments parsed so far: render a form as the model fills it in.
      break;
    case 'tool_call_end':
      // The call's arguments are complete (`error` says when they are not valid for the tool).
      break;
    case 'error':
      console.error(`unreadable stream event: ${event.error.message}`);
      break;
    case 'step_finish':
      console.log(`step ${event.step}: ${event.toolStep.results.length} result(s)`);
      break;
    case 'finish':
      console.log(`\n(${event.result.stopped} after ${event.result.steps.length} step(s))`);
      break;
  }
}
