import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  JsonSchemaValidator,
  jsonSchemaValidator as JsonSchemaValidatorProvider,
} from '@modelcontextprotocol/sdk/validation/types.js';
import { behaviorFromMcpAnnotations, McpToolSchema } from '@toolgate/adapters';
import {
  resolveHeaders,
  toolExecutionErrorOf,
  type HeaderValue,
  type McpExecutorConfig,
  type SecretResolver,
} from '@toolgate/engine';
import { isRecord, upgradeSchemaDraft, type ToolBehavior } from '@toolgate/toolir';
import type { GatewayEgress } from '@toolgate/gateway';
import { McpBehaviorDefaultsSchema, type McpBehaviorDefaults } from '@toolgate/contract';
import { z } from 'zod';
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

// The listing client calls no tool, so it needs no result validators. The SDK would compile every
// `outputSchema` as it lists, and one older-draft schema would fail the whole listing before the
// import could rewrite it as 2020-12 (the registry checks every schema itself).
const NO_RESULT_VALIDATION: JsonSchemaValidatorProvider = {
  getValidator:
    <T>(): JsonSchemaValidator<T> =>
    (input) => ({ valid: true, data: input as T, errorMessage: undefined }),
};

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
  const client = new Client(
    { name: 'toolgate-registry', version: '0.1.0' },
    { jsonSchemaValidator: NO_RESULT_VALIDATION },
  );
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
 * Behavior from MCP tool annotations. A hint the upstream left out comes from the import's
 * `defaults`, else from the spec's defaults (destructiveHint true, idempotentHint false,
 * openWorldHint true); hints only matter when not read-only.
 */
export function behaviorOfAnnotations(
  annotations: UpstreamTool['annotations'],
  defaults: McpBehaviorDefaults = {},
): ToolBehavior {
  const hints = {
    readOnlyHint: annotations?.readOnlyHint ?? defaults.read_only,
    destructiveHint: annotations?.destructiveHint ?? defaults.destructive,
    idempotentHint: annotations?.idempotentHint ?? defaults.idempotent,
    openWorldHint: annotations?.openWorldHint ?? defaults.open_world,
  };
  return { ...behaviorFromMcpAnnotations(hints), requires_approval: 'if_destructive' };
}

// MCP 2025-11-25 `Tool.execution`; `taskSupport` defaults to "forbidden".
const UpstreamExecutionSchema = z.looseObject({
  taskSupport: z.enum(['forbidden', 'optional', 'required']).optional(),
});

// Where an import keeps its behavior defaults in each tool's IR, so a later sync applies them again.
const RecordedDefaultsSchema = z.looseObject({
  protocol_meta: z.looseObject({
    toolgate: z.looseObject({
      source: z.looseObject({ behavior_defaults: McpBehaviorDefaultsSchema }),
    }),
  }),
});

/** The behavior defaults an earlier import recorded in a tool version's IR, if any. */
export function recordedBehaviorDefaults(ir: unknown): McpBehaviorDefaults | undefined {
  const parsed = RecordedDefaultsSchema.safeParse(ir);
  return parsed.success ? parsed.data.protocol_meta.toolgate.source.behavior_defaults : undefined;
}

/** A schema as draft 2020-12, each rewrite an import warning naming the schema (`inputSchema`, `outputSchema`). */
function as2020<TSchema extends Record<string, unknown>>(
  schema: TSchema,
  field: 'inputSchema' | 'outputSchema',
  warnings: string[],
): TSchema {
  const upgraded = upgradeSchemaDraft(schema);
  for (const rewrite of upgraded.rewrites)
    warnings.push(`${field} ${rewrite.path} ${rewrite.keyword}: ${rewrite.message}`);
  return upgraded.schema;
}

/** What the registry makes of an upstream tool: a candidate (with its result schema), or why it refuses it. */
export type UpstreamToolImport =
  | { ok: true; candidate: ToolCandidate; outputSchema: Record<string, unknown> | undefined }
  | { ok: false; reason: string };

/**
 * The registry's view of an upstream tool: its schemas as draft 2020-12, behavior from annotations
 * (gaps filled by `defaults`), an `mcp` executor. A tool that must run as a task is refused: the
 * executor sends plain `tools/call` requests, which such a tool rejects.
 */
export function upstreamToolToCandidate(
  tool: UpstreamTool,
  server: { id: string; name: string; url: string; headers: Record<string, HeaderValue> },
  naming: {
    namePrefix: string;
    taken: Set<string>;
    name?: string | undefined;
    defaults?: McpBehaviorDefaults | undefined;
  },
): UpstreamToolImport {
  const execution = UpstreamExecutionSchema.safeParse(tool.execution ?? {});
  if (!execution.success) return { ok: false, reason: 'not a valid MCP Tool: bad `execution`' };
  if (execution.data.taskSupport === 'required') {
    return {
      ok: false,
      reason:
        'requires task-augmented execution (execution.taskSupport "required"), which the gateway does not support yet',
    };
  }
  const name =
    naming.name ?? uniqueName(sanitizeToolName(`${naming.namePrefix}${tool.name}`), naming.taken);
  naming.taken.add(name);
  const executor: McpExecutorConfig = {
    kind: 'mcp',
    url: server.url,
    tool: tool.name,
    headers: server.headers,
  };
  const defaults = naming.defaults ?? {};
  const warnings: string[] = [];
  const parameters = as2020(tool.inputSchema, 'inputSchema', warnings);
  const outputSchema =
    tool.outputSchema === undefined
      ? undefined
      : as2020(tool.outputSchema, 'outputSchema', warnings);
  return {
    ok: true,
    outputSchema,
    candidate: {
      name,
      description: (tool.description ?? tool.title ?? tool.annotations?.title ?? '').slice(
        0,
        16_384,
      ),
      parameters,
      behavior: behaviorOfAnnotations(tool.annotations, defaults),
      tags: [],
      protocolMeta: {
        // Where the MCP adapter keeps `Tool.execution` too; calls run as plain requests, which "optional" allows.
        ...(tool.execution === undefined ? {} : { execution: tool.execution }),
        toolgate: {
          executor,
          source: {
            kind: 'mcp',
            server_id: server.id,
            server_name: server.name,
            tool: tool.name,
            ...(Object.keys(defaults).length === 0 ? {} : { behavior_defaults: defaults }),
          },
        },
      },
      warnings,
    },
  };
}
