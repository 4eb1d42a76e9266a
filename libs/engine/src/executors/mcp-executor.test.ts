import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { callOf, createHarness, ToolBuilder } from '../__fixtures__/engine-harness';
import { startTestServer } from '../__fixtures__/http-test-server';
import type { TestServer } from '../__fixtures__/http-test-server';
import { executeCall } from '../pipeline/execute-call';
import type { McpClientRelay, RelayedAnswer, RelayedMessage } from './mcp-client-relay';
import { createMcpExecutor } from './mcp-executor';
import { staticSecretResolver } from './secret-resolver';

interface Upstream {
  server: TestServer;
  url: string;
  cancelled: Promise<string>;
  authorizations: string[];
}

let upstreams: Upstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.map((upstream) => upstream.server.close()));
  upstreams = [];
});

function buildMcpServer(onCancelled: (reason: string) => void): McpServer {
  const server = new McpServer(
    { name: 'upstream', version: '1.0.0' },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }, extra) => {
      const progressToken = extra._meta?.progressToken;
      if (progressToken !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: 1, total: 2, message: 'adding' },
        });
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: 2, total: 2 },
        });
      }
      return {
        content: [{ type: 'text', text: String(a + b) }],
        structuredContent: { sum: a + b },
      };
    },
  );
  // Asks its client to sample and to elicit (as raw requests, which the SDK sends whatever the
  // client declared), logging in between; a refusal becomes the tool's error text.
  server.registerTool('ask_client', { description: 'Asks the client.' }, async (extra) => {
    try {
      await extra.sendNotification({
        method: 'notifications/message',
        params: { level: 'info', data: 'asking the client' },
      });
      const sampled = await extra.sendRequest(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 },
        },
        CreateMessageResultSchema,
      );
      const elicited = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          },
        },
        ElicitResultSchema,
      );
      const said = sampled.content.type === 'text' ? sampled.content.text : '';
      return { content: [{ type: 'text', text: `${said} / ${JSON.stringify(elicited.content)}` }] };
    } catch (error) {
      const said = error instanceof Error ? error.message : String(error);
      return { content: [{ type: 'text', text: said }], isError: true };
    }
  });
  server.registerTool('fail', { description: 'Always fails.' }, () => ({
    content: [{ type: 'text', text: 'the ledger is locked' }],
    isError: true,
  }));
  server.registerTool(
    'wait_forever',
    { description: 'Waits until cancelled.' },
    (extra) =>
      new Promise((resolve) => {
        extra.signal.addEventListener('abort', () => {
          onCancelled(String(extra.signal.reason));
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
      }),
  );
  return server;
}

async function startUpstream(): Promise<Upstream> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const authorizations: string[] = [];
  let onCancelled: (reason: string) => void = () => undefined;
  const cancelled = new Promise<string>((resolve) => {
    onCancelled = resolve;
  });
  const server = await startTestServer((request, response) => {
    authorizations.push(request.headers.authorization ?? '');
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing !== undefined) {
      void existing.handleRequest(request, response);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    void buildMcpServer(onCancelled)
      .connect(transport)
      .then(() => transport.handleRequest(request, response));
  });
  const upstream = { server, url: `${server.url}/mcp`, cancelled, authorizations };
  upstreams.push(upstream);
  return upstream;
}

/** An upstream whose every `tools/call` fails with a JSON-RPC error echoing what it was sent. */
async function startFailingUpstream(): Promise<Upstream> {
  const server = await startTestServer((request, response) => {
    const upstream = new Server(
      { name: 'failing', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    upstream.setRequestHandler(CallToolRequestSchema, () => {
      throw new McpError(
        ErrorCode.InternalError,
        `ledger rejected ${String(request.headers.authorization)} (also tried Bearer sk-live-1234567890abcdefgh at https://ops:hunter2@ledger.internal/v1?api_key=k123); account 42 is closed`,
      );
    });
    // No session id generator: a stateless server, one transport per request.
    const transport = new StreamableHTTPServerTransport({});
    response.on('close', () => {
      void transport.close();
      void upstream.close();
    });
    void upstream.connect(transport).then(() => transport.handleRequest(request, response));
  });
  const upstream = {
    server,
    url: `${server.url}/mcp`,
    cancelled: new Promise<string>(() => undefined),
    authorizations: [],
  };
  upstreams.push(upstream);
  return upstream;
}

function mcpTool(input: { name: string; url: string; upstreamTool?: string; timeout_ms?: number }) {
  return ToolBuilder.from({ name: input.name })
    .constraints({ timeout_ms: input.timeout_ms ?? 5000 })
    .executor({
      kind: 'mcp',
      url: input.url,
      ...(input.upstreamTool === undefined ? {} : { tool: input.upstreamTool }),
      headers: { authorization: { secret: 'MCP_TOKEN', prefix: 'Bearer ' } },
    })
    .build();
}

/** A relay standing for the calling client: it answers from `answers` and keeps what it saw. */
function recordingRelay(
  capabilities: McpClientRelay['capabilities'],
  answers: Record<string, RelayedAnswer>,
) {
  const requests: RelayedMessage[] = [];
  const notifications: RelayedMessage[] = [];
  const relay: McpClientRelay = {
    capabilities,
    request: (message) => {
      requests.push(message);
      return Promise.resolve(
        answers[message.method] ?? { error: { code: -32601, message: 'unexpected' } },
      );
    },
    notify: (message) => notifications.push(message),
  };
  return { relay, requests, notifications };
}

function harnessFor(tool: ReturnType<typeof mcpTool>) {
  return createHarness({
    tools: [tool],
    executors: {
      mcp: createMcpExecutor({ secrets: staticSecretResolver({ MCP_TOKEN: 'mcp-token-1' }) }),
    },
  });
}

describe('mcp executor', () => {
  it('calls an upstream tool over Streamable HTTP and forwards its progress', async () => {
    const upstream = await startUpstream();
    const tool = mcpTool({ name: 'sum', url: upstream.url, upstreamTool: 'add' });
    const { context, events } = harnessFor(tool);
    const outcome = await executeCall(callOf('sum', { a: 2, b: 3 }), context);
    expect(outcome.result).toMatchObject({
      ok: true,
      data: { sum: 5 },
      content: [{ type: 'text', text: '5' }],
    });
    const progress = events.events.filter((event) => event.type === 'progress');
    expect(progress).toMatchObject([
      { progress: 1, total: 2, message: 'adding' },
      { progress: 2, total: 2 },
    ]);
    expect(upstream.authorizations.every((value) => value === 'Bearer mcp-token-1')).toBe(true);
  });

  it('turns isError results into tool_error', async () => {
    const upstream = await startUpstream();
    const tool = mcpTool({ name: 'fail', url: upstream.url });
    const outcome = await executeCall(callOf('fail'), harnessFor(tool).context);
    expect(outcome.result.error).toMatchObject({
      code: 'tool_error',
      message: 'the ledger is locked',
      retryable: false,
    });
  });

  it('cancels the upstream request when the timeout fires', async () => {
    const upstream = await startUpstream();
    const tool = mcpTool({ name: 'wait_forever', url: upstream.url, timeout_ms: 300 });
    const [outcome, reason] = await Promise.all([
      executeCall(callOf('wait_forever'), harnessFor(tool).context),
      upstream.cancelled,
    ]);
    expect(outcome.result.error?.code).toBe('timeout');
    expect(reason).toContain('timed out');
  });

  it('reports an unreachable server as a transient upstream error', async () => {
    const upstream = await startUpstream();
    await upstream.server.close();
    upstreams = [];
    const tool = mcpTool({ name: 'sum', url: upstream.url, upstreamTool: 'add' });
    const outcome = await executeCall(callOf('sum', { a: 1, b: 1 }), harnessFor(tool).context);
    expect(outcome.result.error).toMatchObject({ code: 'upstream_error', retryable: true });
  });

  it("passes a JSON-RPC error's own text to the model, scrubbed of credentials, keeping its classification", async () => {
    const upstream = await startFailingUpstream();
    const tool = mcpTool({ name: 'post_entry', url: upstream.url });
    const outcome = await executeCall(callOf('post_entry'), harnessFor(tool).context);
    const error = outcome.result.error;
    expect(error).toMatchObject({ code: 'internal', retryable: false });
    expect(error?.message).toBe(
      'The tool failed unexpectedly. The upstream said: MCP error -32603: ledger rejected Bearer [redacted] (also tried Bearer [redacted] at https://[redacted]@ledger.internal/v1?api_key=[redacted]); account 42 is closed',
    );
    expect(JSON.stringify(outcome)).not.toContain('mcp-token-1');
    expect(JSON.stringify(outcome.result)).not.toContain('hunter2');
  });

  it("passes an HTTP error's body text to the model, capped", async () => {
    const server = await startTestServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/plain' });
      response.end(`maintenance until 10:00 UTC, token=abc123 ${'x'.repeat(1000)}`);
    });
    upstreams.push({
      server,
      url: `${server.url}/mcp`,
      cancelled: new Promise(() => undefined),
      authorizations: [],
    });
    const tool = mcpTool({ name: 'sum', url: `${server.url}/mcp`, upstreamTool: 'add' });
    const outcome = await executeCall(callOf('sum', { a: 1, b: 1 }), harnessFor(tool).context);
    const error = outcome.result.error;
    expect(error).toMatchObject({ code: 'upstream_error', retryable: true });
    expect(error?.message).toMatch(
      /^The tool failed temporarily\. The upstream said: Error POSTing to endpoint: maintenance until 10:00 UTC, token=\[redacted\] x+…$/,
    );
    expect(error?.message.length).toBeLessThan(600);
  });

  describe('relaying what the upstream asks of its client', () => {
    const SAMPLED: RelayedAnswer = {
      result: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' },
    };
    const ELICITED: RelayedAnswer = { result: { action: 'accept', content: { name: 'Ada' } } };

    it("passes sampling, elicitation and log messages to the caller's client and its answers back", async () => {
      const upstream = await startUpstream();
      const tool = mcpTool({ name: 'ask_client', url: upstream.url });
      const { context } = harnessFor(tool);
      const recording = recordingRelay(
        { sampling: {}, elicitation: { form: {} } },
        { 'sampling/createMessage': SAMPLED, 'elicitation/create': ELICITED },
      );
      context.clientRelay = recording.relay;
      const outcome = await executeCall(callOf('ask_client'), context);
      expect(outcome.result).toMatchObject({ ok: true, data: 'hello / {"name":"Ada"}' });
      expect(recording.requests.map((request) => request.method)).toEqual([
        'sampling/createMessage',
        'elicitation/create',
      ]);
      expect(recording.requests[1]?.params).toMatchObject({ message: 'Your name?' });
      expect(recording.notifications).toEqual([
        {
          method: 'notifications/message',
          params: { level: 'info', data: 'asking the client' },
        },
      ]);
    });

    it("passes the client's JSON-RPC error upstream as it is", async () => {
      const upstream = await startUpstream();
      const tool = mcpTool({ name: 'ask_client', url: upstream.url });
      const { context } = harnessFor(tool);
      context.clientRelay = recordingRelay(
        { sampling: {} },
        { 'sampling/createMessage': { error: { code: -1, message: 'the user declined' } } },
      ).relay;
      const outcome = await executeCall(callOf('ask_client'), context);
      expect(outcome.result.error?.message).toBe('MCP error -1: the user declined');
    });

    it('refuses at once, with a JSON-RPC error, what nobody can answer', async () => {
      const upstream = await startUpstream();
      const tool = mcpTool({ name: 'ask_client', url: upstream.url });
      const outcome = await executeCall(callOf('ask_client'), harnessFor(tool).context);
      expect(outcome.result.error?.message).toBe(
        'MCP error -32601: sampling/createMessage cannot be answered: this call did not come ' +
          'from an MCP client session (e.g. POST /v1/calls), so there is no client to ask.',
      );
    });

    it('refuses a request whose capability the calling client did not declare', async () => {
      const upstream = await startUpstream();
      const tool = mcpTool({ name: 'ask_client', url: upstream.url });
      const { context } = harnessFor(tool);
      const recording = recordingRelay(
        { sampling: {} },
        { 'sampling/createMessage': SAMPLED },
      );
      context.clientRelay = recording.relay;
      const outcome = await executeCall(callOf('ask_client'), context);
      expect(outcome.result.error?.message).toBe(
        'MCP error -32601: elicitation/create cannot be answered: the MCP client that made this ' +
          'call did not declare the elicitation capability.',
      );
      expect(recording.requests.map((request) => request.method)).toEqual([
        'sampling/createMessage',
      ]);
    });
  });
});
