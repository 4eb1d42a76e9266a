import Anthropic from '@anthropic-ai/sdk';
import { Toolgate } from '@toolgate/sdk';

const anthropic = new Anthropic();
const toolgate = new Toolgate({
  baseUrl: process.env['TOOLGATE_URL'] ?? 'http://localhost:4000',
  apiKey: process.env['TOOLGATE_API_KEY'] ?? '',
});
const { tools } = await toolgate.tools({ format: 'anthropic', names: ['get_weather'] });

// Your own loop: call the model, hand its tool calls to the gateway, append the results.
const messages: Anthropic.MessageParam[] = [
  { role: 'user', content: 'What is the weather in Oslo?' },
];
const message = await anthropic.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  tools,
  messages,
});
const { results, toolResults } = await toolgate.execute({
  provider: 'anthropic',
  payload: message, // the response as the provider sent it
  ...toolgate.versionsOf(tools), // run the versions the model was shown
  idempotencyKey: crypto.randomUUID(), // makes the POST safe to retry
});
for (const result of toolResults) {
  console.log(`${result.name}: ${result.ok ? JSON.stringify(result.data) : result.error?.code}`);
}

// `results` is a user message of tool_result blocks: append it as it is.
messages.push({ role: 'assistant', content: message.content }, results);
const answer = await anthropic.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  tools,
  messages,
});
console.log(
  answer.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
);
