import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { TestTeam } from '../factories/registry.factory';
import { serveMcpSessions, type LocalMcpServer } from './mcp-session-server';
import type { TestApp } from './test-app';

/** The tools of the asking upstream, as an import names them. */
export const ASKING_TOOLS = ['ask_model', 'ask_user', 'log_steps', 'list_roots'] as const;

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError } : {}) };
}

function failure(error: unknown): CallToolResult {
  return text(error instanceof Error ? error.message : String(error), true);
}

function buildServer(): McpServer {
  const server = new McpServer(
    { name: 'asking-upstream', version: '1.0.0' },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    'ask_model',
    { description: "Asks the client's model.", inputSchema: { prompt: z.string() } },
    async ({ prompt }) => {
      try {
        // createMessage is sent whatever the client declared: its refusal is the tool's error.
        const answer = await server.server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 50,
        });
        return text(`model said: ${answer.content.type === 'text' ? answer.content.text : '?'}`);
      } catch (error) {
        return failure(error);
      }
    },
  );
  server.registerTool('ask_user', { description: "Asks the client's user." }, async () => {
    try {
      const answer = await server.server.elicitInput({
        mode: 'form',
        message: 'Which city?',
        requestedSchema: {
          type: 'object',
          properties: { city: { type: 'string', default: 'Lisbon' } },
          required: ['city'],
        },
      });
      return text(`user ${answer.action}: ${JSON.stringify(answer.content ?? {})}`);
    } catch (error) {
      return failure(error);
    }
  });
  server.registerTool('list_roots', { description: "Lists the client's roots." }, async () => {
    try {
      const { roots } = await server.server.listRoots();
      return text(`roots: ${roots.map((root) => root.uri).join(', ')}`);
    } catch (error) {
      return failure(error);
    }
  });
  server.registerTool('log_steps', { description: 'Logs while it works.' }, async (extra) => {
    for (const [level, data] of [
      ['debug', 'step 0: details'],
      ['info', 'step 1: started'],
      ['warning', 'step 2: slow disk'],
    ] as const) {
      await extra.sendNotification({ method: 'notifications/message', params: { level, data } });
    }
    return text('logged');
  });
  return server;
}

/** A running asking upstream. */
export type AskingUpstream = LocalMcpServer;

/** An upstream MCP server whose tools ask their client (sampling, elicitation) and log as they run. */
export function startAskingUpstream(): Promise<AskingUpstream> {
  return serveMcpSessions(buildServer);
}

/** Imports the asking upstream's tools into the team's catalog, callable without an approval. */
export async function importAskingUpstream(
  api: TestApp,
  team: TestTeam,
  upstream: AskingUpstream,
): Promise<void> {
  const imported = await api.request({
    method: 'POST',
    url: '/v1/imports/mcp-servers',
    key: team.key,
    body: {
      name: 'asking-upstream',
      url: upstream.url,
      publish: true,
      defaults: { read_only: true, destructive: false, idempotent: true, open_world: false },
    },
  });
  if (imported.status !== 201) throw new Error(`import failed: ${imported.text}`);
}

/** What a test client answers and what it heard. */
export interface AskedClient {
  client: Client;
  /** The prompts the upstream sampled. */
  prompts: string[];
  /** The log messages relayed to it, as `level: data`. */
  logs: string[];
}

/**
 * An MCP client of /mcp in a session: with `answers`, it declares sampling, form elicitation and
 * roots and answers them (its model echoes the prompt, its user accepts the defaults, or declines).
 */
export async function connectAskedClient(
  baseUrl: string,
  key: string,
  answers?: { elicitation: 'accept' | 'decline' },
): Promise<AskedClient> {
  const client = new Client(
    { name: 'asked-client', version: '1.0.0' },
    answers === undefined
      ? {}
      : { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  const asked: AskedClient = { client, prompts: [], logs: [] };
  if (answers !== undefined) {
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      const content = request.params.messages[0]?.content;
      const prompt = content !== undefined && 'text' in content ? String(content.text) : '';
      asked.prompts.push(prompt);
      return {
        role: 'assistant',
        content: { type: 'text', text: `echo ${prompt}` },
        model: 'test-model',
      };
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: 'file:///work/project', name: 'project' }],
    }));
    client.setRequestHandler(ElicitRequestSchema, () =>
      answers.elicitation === 'accept'
        ? { action: 'accept', content: { city: 'Porto' } }
        : { action: 'decline' },
    );
  }
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    asked.logs.push(`${notification.params.level}: ${String(notification.params.data)}`);
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return asked;
}

/** The text of a tool result's first block. */
export function resultText(result: Awaited<ReturnType<Client['callTool']>>): string {
  const [block] = result.content as Array<{ type: string; text?: string }>;
  return block?.text ?? '';
}

/** What a REST call of `ask_model` came to: the error its upstream's refused sampling left. */
export async function askModelOverRest(api: TestApp, team: TestTeam): Promise<string> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls/ir?wait_ms=15000',
    key: team.key,
    body: [{ id: `call-${randomUUID()}`, name: 'ask_model', arguments: { prompt: 'hi' } }],
  });
  if (response.status !== 200) throw new Error(`the call failed: ${response.text}`);
  const [result] = response.body.results as Array<{ ok: boolean; error?: { message: string } }>;
  return result?.error?.message ?? '';
}

/** What the upstream is told when a REST call's upstream asks for sampling. */
export const REST_REFUSAL =
  'sampling/createMessage cannot be answered: this call did not come from an MCP client ' +
  'session (e.g. POST /v1/calls), so there is no client to ask.';
