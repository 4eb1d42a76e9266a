import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { ContentBlockSchema } from '@toolgate/toolir';
import type { ContentBlock } from '@toolgate/toolir';
import type { FailureSignal } from '../classification/failure-signal';
import type { ExecutorOutcome, ExecutorRequest, ToolExecutor } from './executor';
import { failureFromError, toolExecutionErrorOf } from './executor';
import type { McpExecutorConfig } from '@toolgate/contract';
import {
  RELAYED_NOTIFICATIONS,
  RELAYED_REQUESTS,
  isRelayedRequest,
  type McpClientRelay,
} from './mcp-client-relay';
import type { SecretResolver } from './secret-resolver';
import { redactSecrets, resolveHeaders } from './secret-resolver';
import { scrubCredentials, scrubUpstreamText } from './scrub-upstream-text';
import { traceHeadersOf, withTraceHeaders } from '../telemetry/trace-headers';

/** Options of the `mcp` executor. */
export interface McpExecutorOptions {
  /** Resolves `{secret: 'NAME'}` header values. */
  secrets?: SecretResolver;
  /** How the gateway introduces itself to upstream servers. */
  clientInfo?: { name: string; version: string };
  /** The fetch the transport connects with; the egress policy's (createEgressFetch) in the gateway. */
  fetch?: typeof fetch;
}

// The engine's own timer decides when an attempt ends; the SDK's default 60 s request timeout must not cut in first.
const SDK_TIMEOUT_SLACK_MS = 5_000;

const CANCEL_FLUSH_MS = 1000;

/** Records the transport's in-flight sends, so closing can wait for them. */
function trackSends(transport: StreamableHTTPClientTransport): Set<Promise<void>> {
  const inFlight = new Set<Promise<void>>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const sending = send(message, options);
    inFlight.add(sending);
    const forget = (): void => {
      inFlight.delete(sending);
    };
    sending.then(forget, forget);
    return sending;
  };
  return inFlight;
}

async function settleWithin(promises: ReadonlySet<Promise<void>>, ms: number): Promise<void> {
  if (promises.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled([...promises]), deadline]);
  clearTimeout(timer);
}

function toContentBlocks(content: unknown): ContentBlock[] {
  if (!Array.isArray(content)) return [];
  const blocks: ContentBlock[] = [];
  for (const item of content) {
    const parsed = ContentBlockSchema.safeParse(item);
    if (parsed.success) blocks.push(parsed.data);
  }
  return blocks;
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

function failureFromMcpError(
  error: unknown,
  signal: AbortSignal,
  secretValues: readonly string[],
): FailureSignal {
  if (signal.aborted) return { aborted: true, message: 'the call was cancelled' };
  const thrown = toolExecutionErrorOf(error);
  if (thrown !== undefined) return thrown.signal;
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 100) {
    const said = scrubUpstreamText(
      error.message.replace(/^Streamable HTTP error: /, ''),
      secretValues,
    );
    return {
      http_status: error.code,
      message: `the MCP server answered HTTP ${error.code}: ${said}`,
      upstream_message: said,
    };
  }
  if (error instanceof McpError) {
    if (error.code === Number(ErrorCode.RequestTimeout))
      return { timeout: true, message: 'the MCP request timed out' };
    // The JSON-RPC error's own message, e.g. "MCP error -32603: the ledger is locked".
    const said = scrubUpstreamText(
      // An upstream that threw the SDK's own McpError sends its prefixed message; say it once.
      error.message.replace(/^(MCP error -?\d+: )(?:MCP error -?\d+: )+/, '$1'),
      secretValues,
    );
    if (error.code === Number(ErrorCode.InvalidParams))
      return { code: 'invalid_arguments', message: said, upstream_message: said };
    return { code: 'upstream_error', message: said, upstream_message: said };
  }
  return failureFromError(error, signal);
}

/** A JSON-RPC error as the SDK sends it upstream: `code`, `message` and `data` as they are. */
function jsonRpcError(code: number, message: string, data?: unknown): Error {
  // Not McpError, whose message carries an "MCP error <code>: " prefix into the wire's message.
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

/**
 * Answers what the upstream asks of its client during the call: relayed requests go to the client
 * that made the call and its answer comes back; anything it cannot answer is refused at once, so an
 * upstream never waits on a question nobody will see.
 */
function relayUpstreamRequests(
  client: Client,
  relay: McpClientRelay | undefined,
  attempt: { signal: AbortSignal; deadlineAt: number },
): void {
  client.fallbackRequestHandler = async (request: JSONRPCRequest, extra) => {
    const { method } = request;
    if (!isRelayedRequest(method)) {
      throw jsonRpcError(
        ErrorCode.MethodNotFound,
        `Toolgate does not relay ${method} to the client that made this call.`,
      );
    }
    const capability = RELAYED_REQUESTS[method];
    if (relay === undefined) {
      throw jsonRpcError(
        ErrorCode.MethodNotFound,
        `${method} cannot be answered: this call did not come from an MCP client session ` +
          '(e.g. POST /v1/calls), so there is no client to ask.',
      );
    }
    if (relay.capabilities[capability] === undefined) {
      throw jsonRpcError(
        ErrorCode.MethodNotFound,
        `${method} cannot be answered: the MCP client that made this call did not declare the ` +
          `${capability} capability.`,
      );
    }
    const answer = await relay.request(
      { method, ...(request.params === undefined ? {} : { params: request.params }) },
      { signal: AbortSignal.any([attempt.signal, extra.signal]), deadlineAt: attempt.deadlineAt },
    );
    if ('error' in answer) {
      throw jsonRpcError(answer.error.code, answer.error.message, answer.error.data);
    }
    return answer.result;
  };
  client.fallbackNotificationHandler = (notification) => {
    if (relay !== undefined && RELAYED_NOTIFICATIONS.includes(notification.method)) {
      relay.notify({
        method: notification.method,
        ...(notification.params === undefined ? {} : { params: notification.params }),
      });
    }
    return Promise.resolve();
  };
}

async function executeMcp(
  request: ExecutorRequest<McpExecutorConfig>,
  options: McpExecutorOptions,
): Promise<ExecutorOutcome> {
  const { config, signal } = request;
  let secretValues: string[] = [];
  let client: Client | undefined;
  let flush: () => Set<Promise<void>> = () => new Set();
  try {
    const resolved = await resolveHeaders(config.headers, request.secrets ?? options.secrets);
    secretValues = resolved.secretValues;
    // The attempt's span (active here) is the upstream's parent: in the HTTP headers of every
    // request, and in the tools/call's `_meta`, where MCP servers look for it.
    const traceContext = traceHeadersOf();
    const transport = new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: withTraceHeaders(resolved.headers, traceContext) },
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    const inFlight = trackSends(transport);
    flush = () => inFlight;
    const relay = request.clientRelay;
    // The upstream sees what the calling client can answer as the gateway's own capabilities.
    client = new Client(options.clientInfo ?? { name: 'toolgate-engine', version: '0.1.0' }, {
      capabilities: { ...relay?.capabilities },
    });
    relayUpstreamRequests(client, relay, {
      signal,
      deadlineAt: request.now() + request.tool.constraints.timeout_ms,
    });
    const timeout = request.tool.constraints.timeout_ms + SDK_TIMEOUT_SLACK_MS;
    await client.connect(transport, { signal, timeout });
    // The request's signal makes the SDK send notifications/cancelled upstream when the attempt is aborted.
    const result = await client.callTool(
      {
        name: config.tool ?? request.tool.name,
        arguments: request.arguments,
        ...(traceContext.traceparent === undefined ? {} : { _meta: { ...traceContext } }),
      },
      undefined,
      {
        signal,
        timeout,
        onprogress: (progress) =>
          request.reportProgress({
            progress: progress.progress,
            ...(progress.total === undefined ? {} : { total: progress.total }),
            ...(progress.message === undefined ? {} : { message: progress.message }),
          }),
      },
    );
    const content = toContentBlocks(result['content']);
    if (result['isError'] === true) {
      // The tool's own error text is the result: scrubbed of credentials like any upstream text, not cut short.
      const failure: FailureSignal = {
        code: 'tool_error',
        message: scrubCredentials(textOf(content), secretValues) || 'the tool reported an error',
      };
      return { ok: false, failure };
    }
    const structured = result['structuredContent'];
    const data: unknown =
      structured ?? (content.every((block) => block.type === 'text') ? textOf(content) : undefined);
    return {
      ok: true,
      ...(data === undefined ? {} : { data: redactSecrets(data, secretValues) }),
      ...(content.length === 0 ? {} : { content: redactSecrets(content, secretValues) }),
    };
  } catch (error) {
    return {
      ok: false,
      failure: redactSecrets(failureFromMcpError(error, signal, secretValues), secretValues),
    };
  } finally {
    // On abort the SDK sends notifications/cancelled without awaiting it: closing at once would cut that request off.
    await settleWithin(flush(), CANCEL_FLUSH_MS);
    await client?.close().catch(() => undefined);
  }
}

/** The `mcp` executor: calls a tool of an upstream MCP server over Streamable HTTP, forwarding progress and cancellation. */
export function createMcpExecutor(options: McpExecutorOptions = {}): ToolExecutor<'mcp'> {
  return { kind: 'mcp', execute: (request) => executeMcp(request, options) };
}
