/**
 * An ES module app written against the installed `@toolgate/sdk`, as an app team writes one: it pulls
 * its tools from the gateway, runs the model <-> tools loop with the official OpenAI client (which
 * reads OPENAI_API_KEY and OPENAI_BASE_URL itself) and prints the outcome as one JSON line.
 */
import OpenAI from 'openai';
import { Toolgate, type ToolExport } from '@toolgate/sdk';

const CONVERSATION_ID = 'sdk-package-esm';

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

const toolgate = new Toolgate({
  baseUrl: requiredEnv('TOOLGATE_URL'),
  apiKey: requiredEnv('TOOLGATE_API_KEY'),
});
const openai = new OpenAI();

const exported: ToolExport<'openai-chat'> = await toolgate.tools({ format: 'openai-chat' });
// The exported tools are the official client's own request type, with no cast.
const request: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  tools: exported.tools,
};
const result = await toolgate.runToolLoop({
  provider: 'openai-chat',
  client: openai,
  request,
  conversationId: CONVERSATION_ID,
});

// Declarations that resolved to `any` would accept these; the package's must not.
// @ts-expect-error 'openai-chats' is not a wire format
type _NotAFormat = ToolExport<'openai-chats'>;
// @ts-expect-error an OpenAI Chat tool's name is a string
const _numericName: Extract<ToolExport<'openai-chat'>['tools'][number], { type: 'function' }>['function']['name'] = 42;

console.log(
  JSON.stringify({
    entry: 'esm',
    snapshot: exported.snapshot,
    tools: exported.tools.flatMap((tool) => (tool.type === 'function' ? [tool.function.name] : [])),
    stopped: result.stopped,
    text: result.text,
    results: result.steps.flatMap((step) => step.results),
    messages: result.request.messages.map((message) => message.role),
  }),
);
