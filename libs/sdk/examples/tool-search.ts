import Anthropic from '@anthropic-ai/sdk';
import { Toolgate } from '@toolgate/sdk';

// The official client reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL when set).
const anthropic = new Anthropic();
const toolgate = new Toolgate({
  baseUrl: process.env['TOOLGATE_URL'] ?? 'http://localhost:4000',
  apiKey: process.env['TOOLGATE_API_KEY'] ?? '',
});

// One tool instead of the whole catalog: the model searches for what its task needs, and the
// loop offers what each search finds from the next turn on.
const search = toolgate.toolSearch({ format: 'anthropic', limit: 3 });

const result = await toolgate.runToolLoop({
  provider: 'anthropic',
  client: anthropic,
  request: {
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    tools: [search.definition],
    messages: [{ role: 'user', content: 'What is the weather in Oslo?' }],
  },
  toolSearch: search,
});

for (const step of result.steps) {
  for (const call of step.toolCalls) {
    console.log(`${call.executedBy}: ${call.name} ${JSON.stringify(call.arguments)}`);
  }
}
console.log(result.text);
