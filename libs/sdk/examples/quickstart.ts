import OpenAI from 'openai';
import { Toolgate } from '@toolgate/sdk';

// The official client reads OPENAI_API_KEY (and OPENAI_BASE_URL when set).
const openai = new OpenAI();
const toolgate = new Toolgate({
  baseUrl: process.env['TOOLGATE_URL'] ?? 'http://localhost:4000',
  apiKey: process.env['TOOLGATE_API_KEY'] ?? '',
});

// The registry's tools in OpenAI's format, at the versions it serves this caller.
const { tools } = await toolgate.tools({ format: 'openai-chat', names: ['get_weather'] });

// The model asks for tools, the gateway runs them (validation, policies, approvals, retries),
// and the loop goes on until the model answers. Each call runs the version the model was shown.
const result = await toolgate.runToolLoop({
  provider: 'openai-chat',
  client: openai,
  request: {
    model: 'gpt-4o',
    tools,
    messages: [{ role: 'user', content: 'What is the weather in Oslo?' }],
  },
  maxSteps: 5,
});
console.log(result.text);
