import { z } from 'zod';
import type { ToolIR } from '@toolgate/toolir';

/** A reference to a secret resolved at call time through the SecretResolver; the value never appears in a ToolIR. */
export const SecretRefSchema = z.strictObject({
  /** The secret's name in the host's secret store. */
  secret: z.string().min(1),
  /** Text put before the value, e.g. `Bearer `. */
  prefix: z.string().optional(),
});
/** A reference to a secret. */
export type SecretRef = z.infer<typeof SecretRefSchema>;

/** A header value: literal text or a secret reference. */
export const HeaderValueSchema = z.union([z.string(), SecretRefSchema]);
/** A header value. */
export type HeaderValue = z.infer<typeof HeaderValueSchema>;

const HttpUrlSchema = z
  .string()
  .min(1)
  .refine((url) => /^https?:\/\//i.test(url), 'must be an http:// or https:// URL');

/** Calls an HTTP endpoint: `{arg}` placeholders in the URL are filled (URL-encoded) from the arguments. */
export const HttpExecutorConfigSchema = z.strictObject({
  kind: z.literal('http'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
  /** URL template, e.g. `https://api.example.com/orders/{order_id}`. */
  url: HttpUrlSchema,
  headers: z.record(z.string(), HeaderValueSchema).default({}),
  /** What goes into the JSON body; default: the arguments not used in the URL for POST/PUT/PATCH, nothing otherwise. */
  body: z.enum(['arguments', 'remaining_arguments', 'none']).optional(),
  /** What goes into the query string; default: the arguments not used in the URL for GET/HEAD/DELETE. */
  query: z.enum(['remaining_arguments', 'none']).optional(),
  /** Reading stops (and the call fails) past this many response bytes. */
  max_response_bytes: z
    .number()
    .int()
    .positive()
    .max(100 * 1024 * 1024)
    .default(1024 * 1024),
});
/** Configuration of the `http` executor. */
export type HttpExecutorConfig = z.infer<typeof HttpExecutorConfigSchema>;

/** Calls a tool of an upstream MCP server over Streamable HTTP. */
export const McpExecutorConfigSchema = z.strictObject({
  kind: z.literal('mcp'),
  /** The server's MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  url: HttpUrlSchema,
  /** The tool's name on the upstream server; defaults to the ToolIR's name. */
  tool: z.string().min(1).optional(),
  headers: z.record(z.string(), HeaderValueSchema).default({}),
});
/** Configuration of the `mcp` executor. */
export type McpExecutorConfig = z.infer<typeof McpExecutorConfigSchema>;

/** Runs a handler registered in code with `registerBuiltin`. */
export const BuiltinExecutorConfigSchema = z.strictObject({
  kind: z.literal('builtin'),
  /** The name the handler was registered under. */
  handler: z.string().min(1),
});
/** Configuration of the `builtin` executor. */
export type BuiltinExecutorConfig = z.infer<typeof BuiltinExecutorConfigSchema>;

/** How a tool is executed: the ToolIR's `protocol_meta.toolgate.executor`. */
export const ExecutorConfigSchema = z.discriminatedUnion('kind', [
  HttpExecutorConfigSchema,
  McpExecutorConfigSchema,
  BuiltinExecutorConfigSchema,
]);
/** How a tool is executed. */
export type ExecutorConfig = z.infer<typeof ExecutorConfigSchema>;
/** The executor kinds. */
export type ExecutorKind = ExecutorConfig['kind'];

/** Reads and validates a tool's executor configuration from `protocol_meta.toolgate.executor`. */
export function readExecutorConfig(
  tool: Pick<ToolIR, 'protocol_meta'>,
): { ok: true; config: ExecutorConfig } | { ok: false; message: string } {
  const toolgate = tool.protocol_meta?.['toolgate'];
  const raw =
    toolgate !== null && typeof toolgate === 'object'
      ? (toolgate as Record<string, unknown>)['executor']
      : undefined;
  if (raw === undefined)
    return { ok: false, message: 'the tool has no protocol_meta.toolgate.executor' };
  const parsed = ExecutorConfigSchema.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  const issues = parsed.error.issues.map(
    (issue) => `/${issue.path.map(String).join('/')}: ${issue.message}`,
  );
  return { ok: false, message: `invalid executor config: ${issues.join('; ')}` };
}
