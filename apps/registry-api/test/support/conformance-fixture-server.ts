import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type CallToolResult,
  type ElicitRequestFormParams,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { serveMcpSessions, type LocalMcpServer } from './mcp-session-server';

/**
 * The upstream MCP server behind Toolgate in the official conformance suite's run: the tools its
 * server scenarios call by name (`test_simple_text`, ...), answering as those scenarios check. The
 * suite talks to Toolgate's /mcp; Toolgate imports these tools and relays the calls here.
 */

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

interface FixtureTool {
  definition: Tool;
  run(context: { server: Server; request: CallToolRequest; extra: Extra }): Promise<CallToolResult>;
}

// A 1x1 PNG, the smallest valid image a client can decode.
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A few milliseconds of 8-bit mono silence with a valid RIFF/WAVE header. */
function silentWav(): string {
  const samples = 8;
  const wav = Buffer.alloc(44 + samples, 0x80);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(8000, 24); // sample rate
  wav.writeUInt32LE(8000, 28); // byte rate
  wav.writeUInt16LE(1, 32); // block align
  wav.writeUInt16LE(8, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples, 40);
  return wav.toString('base64');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function stringArgument(request: CallToolRequest, name: string): string {
  const value = request.params.arguments?.[name];
  return typeof value === 'string' ? value : '';
}

function noArguments(
  name: string,
  description: string,
  run: FixtureTool['run'],
): [string, FixtureTool] {
  return [name, { definition: { name, description, inputSchema: NO_ARGUMENTS }, run }];
}

/** Asks the client for input; the SDK refuses at once when the client declares no elicitation. */
async function elicit(server: Server, params: ElicitRequestFormParams): Promise<CallToolResult> {
  try {
    const answer = await server.elicitInput(params);
    return text(
      `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  } catch (error) {
    return { isError: true, ...text(`elicitation failed: ${String(error)}`) };
  }
}

const TOOLS = new Map<string, FixtureTool>([
  noArguments('test_simple_text', 'Returns one text block.', () =>
    Promise.resolve(text('This is a simple text response for testing.')),
  ),
  noArguments('test_image_content', 'Returns a PNG image block.', () =>
    Promise.resolve({ content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }] }),
  ),
  noArguments('test_audio_content', 'Returns a WAV audio block.', () =>
    Promise.resolve({ content: [{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }] }),
  ),
  noArguments('test_embedded_resource', 'Returns an embedded text resource.', () =>
    Promise.resolve({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  ),
  noArguments('test_multiple_content_types', 'Returns text, an image and a resource.', () =>
    Promise.resolve({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  ),
  noArguments(
    'test_tool_with_logging',
    'Sends three log messages while it runs.',
    async ({ extra }) => {
      for (const [index, data] of [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ].entries()) {
        if (index > 0) await sleep(50);
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level: 'info', data },
        });
      }
      return text('Logged three messages.');
    },
  ),
  noArguments(
    'test_tool_with_progress',
    'Reports progress 0, 50 and 100 of 100.',
    async ({ request, extra }) => {
      const progressToken = request.params._meta?.progressToken;
      for (const [index, progress] of [0, 50, 100].entries()) {
        if (index > 0) await sleep(50);
        if (progressToken === undefined) continue;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, total: 100 },
        });
      }
      return text('Progress reported.');
    },
  ),
  noArguments('test_error_handling', 'Always fails with a tool error.', () =>
    Promise.resolve({
      isError: true,
      ...text('This tool intentionally returns an error for testing'),
    }),
  ),
  noArguments('test_reconnection', 'Answers after a short pause.', async () => {
    await sleep(100);
    return text('Reconnection test completed.');
  }),
  [
    'test_sampling',
    {
      definition: {
        name: 'test_sampling',
        description: 'Asks the client for an LLM completion of the prompt.',
        inputSchema: {
          type: 'object',
          properties: { prompt: { type: 'string', description: 'The prompt for the LLM' } },
          required: ['prompt'],
        },
      },
      async run({ server, request }) {
        const prompt = stringArgument(request, 'prompt');
        // As the scenario asks; the SDK sends createMessage unchecked and would wait for an answer.
        if (server.getClientCapabilities()?.sampling === undefined)
          return { isError: true, ...text('the client does not support sampling') };
        try {
          const answer = await server.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
            maxTokens: 100,
          });
          const said = answer.content.type === 'text' ? answer.content.text : answer.content.type;
          return text(`LLM response: ${said}`);
        } catch (error) {
          return { isError: true, ...text(`sampling failed: ${String(error)}`) };
        }
      },
    },
  ],
  [
    'test_elicitation',
    {
      definition: {
        name: 'test_elicitation',
        description: 'Asks the user for a name and an email address.',
        inputSchema: {
          type: 'object',
          properties: { message: { type: 'string', description: 'What to ask the user' } },
          required: ['message'],
        },
      },
      run: ({ server, request }) =>
        elicit(server, {
          message: stringArgument(request, 'message'),
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        }),
    },
  ],
  noArguments(
    'test_elicitation_sep1034_defaults',
    'Elicits one field of each primitive type, each with a default.',
    ({ server }) =>
      elicit(server, {
        message: 'Confirm or change the defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
      }),
  ),
  noArguments(
    'test_elicitation_sep1330_enums',
    'Elicits each of the five enum forms.',
    ({ server }) =>
      elicit(server, {
        message: 'Pick options',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                ],
              },
            },
          },
        },
      }),
  ),
  [
    'json_schema_2020_12_tool',
    {
      definition: {
        name: 'json_schema_2020_12_tool',
        description: 'Takes a name and an address (a 2020-12 schema with $defs).',
        inputSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          $defs: {
            address: {
              type: 'object',
              properties: { street: { type: 'string' }, city: { type: 'string' } },
            },
          },
          properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
          additionalProperties: false,
        },
      },
      run: () => Promise.resolve(text('Received.')),
    },
  ],
]);

/** The names of the fixture's tools, as the suite's scenarios call them. */
export const CONFORMANCE_FIXTURE_TOOLS: readonly string[] = [...TOOLS.keys()];

function buildServer(): Server {
  const server = new Server(
    { name: 'conformance-fixture', version: '1.0.0' },
    { capabilities: { tools: {}, logging: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...TOOLS.values()].map((tool) => tool.definition),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = TOOLS.get(request.params.name);
    if (tool === undefined)
      throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    return tool.run({ server, request, extra });
  });
  return server;
}

/** The running fixture. */
export type ConformanceFixtureServer = LocalMcpServer;

/** Starts the fixture on a loopback port, keeping sessions (the sampling scenarios need them). */
export function startConformanceFixtureServer(): Promise<ConformanceFixtureServer> {
  return serveMcpSessions(buildServer);
}
