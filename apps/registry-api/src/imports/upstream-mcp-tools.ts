import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { behaviorFromMcpAnnotations, McpToolSchema } from '@toolgate/adapters';
import {
  resolveHeaders,
  toolExecutionErrorOf,
  type HeaderValue,
  type McpExecutorConfig,
  type SecretResolver,
} from '@toolgate/engine';
import { isRecord, type ToolBehavior } from '@toolgate/toolir';
import type { GatewayEgress } from '@toolgate/gateway';
import type { z } from 'zod';
import { ToolException } from '../problem/tool.exception';
import { egressDenied } from './import-egress';
import { sanitizeToolName, uniqueName } from './tool-names';
import type { ToolCandidate } from './tool-version-plan';

/** One tool as the upstream lists it (MCP `Tool`), checked at the trust boundary by the MCP adapter's schema. */
export type UpstreamTool = z.infer<typeof McpToolSchema>;

/** How the registry reaches an upstream server. */
export interface UpstreamServer {
  url: string;
  headers: Record<string, HeaderValue>;
}

// More pages than any real server has; a server that never stops paginating is cut off here.
const MAX_PAGES = 100;
const CONNECT_TIMEOUT_MS = 10_000;

function unreachable(url: string, reason: string, cause?: unknown): ToolException {
  const refused = toolExecutionErrorOf(cause);
  if (refused?.signal.code === 'egress_denied')
    return egressDenied('/body/url', refused.message, cause);
  return new ToolException(
    'upstream_unavailable',
    `The MCP server at ${url} could not be listed: ${reason}. Check that the URL is the server's Streamable HTTP endpoint, that it is running and reachable from the registry, and that its credential secret is right; then retry. Nothing was changed.`,
    { extensions: { upstream_url: url }, cause },
  );
}

/** Every tool of an upstream server (all pages), through the SDK's Client over Streamable HTTP. */
export async function listUpstreamTools(
  server: UpstreamServer,
  through: { secrets: SecretResolver | undefined; egress: GatewayEgress },
): Promise<{ tools: UpstreamTool[]; invalid: Array<{ upstream_name: string; reason: string }> }> {
  let headers: Record<string, string>;
  try {
    ({ headers } = await resolveHeaders(server.headers, through.secrets));
  } catch (error) {
    throw new ToolException(
      'invalid_request',
      `A secret of the server's auth header is not available to the registry: ${error instanceof Error ? error.message : String(error)}.`,
      {
        issues: [
          { path: '/body/auth/secret_ref', message: 'names no secret the registry can resolve' },
        ],
      },
    );
  }
  const client = new Client({ name: 'toolgate-registry', version: '0.1.0' });
  // The egress policy's fetch: the import connects only where a call to the tool could.
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers },
    fetch: through.egress.fetch,
  });
  try {
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      throw unreachable(server.url, error instanceof Error ? error.message : String(error), error);
    }
    const tools: UpstreamTool[] = [];
    const invalid: Array<{ upstream_name: string; reason: string }> = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      let listed: { tools: unknown[]; nextCursor?: string | undefined };
      try {
        listed = await client.listTools(cursor === undefined ? {} : { cursor }, {
          timeout: CONNECT_TIMEOUT_MS,
        });
      } catch (error) {
        throw unreachable(
          server.url,
          error instanceof Error ? error.message : String(error),
          error,
        );
      }
      for (const raw of listed.tools) {
        const parsed = McpToolSchema.safeParse(raw);
        if (parsed.success) tools.push(parsed.data);
        else
          invalid.push({
            upstream_name: isRecord(raw) ? String(raw['name']) : '?',
            reason: 'not a valid MCP Tool',
          });
      }
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return { tools, invalid };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * Behavior from MCP tool annotations, with the spec's defaults for missing hints
 * (destructiveHint true, idempotentHint false, openWorldHint true); hints only matter when not read-only.
 */
export function behaviorOfAnnotations(annotations: UpstreamTool['annotations']): ToolBehavior {
  return { ...behaviorFromMcpAnnotations(annotations), requires_approval: 'if_destructive' };
}

// A schema declaring an older draft would be refused by the registry's 2020-12 checks; drop the declaration.
function inputSchemaOf(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema, ...rest } = schema;
  return $schema === 'https://json-schema.org/draft/2020-12/schema' ? schema : rest;
}

/** The registry's view of an upstream tool: same schema, behavior from annotations, an `mcp` executor. */
export function upstreamToolToCandidate(
  tool: UpstreamTool,
  server: { id: string; name: string; url: string; headers: Record<string, HeaderValue> },
  naming: { namePrefix: string; taken: Set<string>; name?: string | undefined },
): ToolCandidate {
  const name =
    naming.name ?? uniqueName(sanitizeToolName(`${naming.namePrefix}${tool.name}`), naming.taken);
  naming.taken.add(name);
  const executor: McpExecutorConfig = {
    kind: 'mcp',
    url: server.url,
    tool: tool.name,
    headers: server.headers,
  };
  return {
    name,
    description: (tool.description ?? tool.title ?? tool.annotations?.title ?? '').slice(0, 16_384),
    parameters: inputSchemaOf(tool.inputSchema),
    behavior: behaviorOfAnnotations(tool.annotations),
    tags: [],
    protocolMeta: {
      toolgate: {
        executor,
        source: { kind: 'mcp', server_id: server.id, server_name: server.name, tool: tool.name },
      },
    },
    warnings: [],
  };
}
