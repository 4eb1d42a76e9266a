import { z } from 'zod';
import type { ToolIR } from '@toolgate/toolir';

/** A reference to a secret resolved at call time through the SecretResolver; the value never appears in a ToolIR. */
export const SecretRefSchema = z
  .strictObject({
    secret: z
      .string()
      .min(1)
      .meta({ description: "The secret's name in the host's secret store." }),
    prefix: z
      .string()
      .optional()
      .meta({ description: 'Text put before the value, e.g. `Bearer `.' }),
  })
  .meta({
    id: 'SecretRef',
    description:
      'A reference to a secret of the calling team, resolved at call time; the value never appears in a ToolIR.',
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

// RFC 9110 §5.6.2: a field name is a token.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether `name` may name a header or a cookie (an RFC 9110 token). */
export function isHttpTokenName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/** Headers the executor sets itself or that describe the connection; an argument never writes them. */
export const EXECUTOR_RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'connection',
  'content-length',
  'content-type',
  'cookie',
  'host',
  'transfer-encoding',
]);

/** Where one argument goes in the request (OpenAPI 3.x Parameter Object locations and styles). */
export const HttpParameterSchema = z.strictObject({
  in: z.enum(['path', 'query', 'header', 'cookie']).meta({
    description:
      'The request part: a `{name}` URL placeholder, the query string, a header or the Cookie header.',
  }),
  name: z.string().min(1).optional().meta({
    description:
      "The name on the wire when it differs from the argument's name (e.g. `X-Request-Id`, `page[size]`).",
  }),
  style: z
    .enum(['simple', 'label', 'matrix', 'form', 'spaceDelimited', 'pipeDelimited', 'deepObject'])
    .optional()
    .meta({
      description:
        'How arrays and objects are written: `simple` (default in path and header), `label` (`.a,b`) or `matrix` (`;name=a,b`) in path, `form` (default in query and cookie), `spaceDelimited`, `pipeDelimited` or `deepObject` in query.',
    }),
  explode: z.boolean().optional().meta({
    description:
      'Whether array items and object properties become separate pairs; default true for `form`, false otherwise.',
  }),
  allow_reserved: z.boolean().optional().meta({
    description:
      'Query only: reserved characters (RFC 3986 §2.2) are sent without percent-encoding.',
  }),
});
/** Where one argument goes in the request. */
export type HttpParameter = z.infer<typeof HttpParameterSchema>;

/** The OpenAPI styles each parameter location allows. */
export const HTTP_PARAMETER_STYLES: Readonly<Record<HttpParameter['in'], ReadonlySet<string>>> = {
  path: new Set(['simple', 'label', 'matrix']),
  header: new Set(['simple']),
  query: new Set(['form', 'spaceDelimited', 'pipeDelimited', 'deepObject']),
  cookie: new Set(['form']),
};

/** Calls an HTTP endpoint: `{arg}` placeholders in the URL are filled (URL-encoded) from the arguments. */
export const HttpExecutorConfigSchema = z
  .strictObject({
    kind: z.literal('http'),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
    url: HttpUrlSchema.meta({
      description: 'URL template, e.g. `https://api.example.com/orders/{order_id}`.',
    }),
    headers: z.record(z.string(), HeaderValueSchema).default({}),
    query_params: z.record(z.string().min(1), HeaderValueSchema).optional().meta({
      description:
        "Fixed query parameters, literal or `{secret}` (for APIs that take their key as `?api_key=`), sent after the arguments' query parameters.",
    }),
    parameters: z.record(z.string(), HttpParameterSchema).optional().meta({
      description:
        'Argument name -> where it goes; arguments not listed follow the `body`/`query` rules as before.',
    }),
    body: z
      .union([
        z.enum(['arguments', 'remaining_arguments', 'none']),
        z.strictObject({ argument: z.string().min(1) }),
      ])
      .optional()
      .meta({
        description:
          "What goes into the JSON body; default: the arguments not used in the URL (nor listed in `parameters`) for POST/PUT/PATCH, nothing otherwise. `{argument}`: that one argument's value is the whole body (arrays, primitives), none when it is absent.",
      }),
    body_encoding: z.enum(['json', 'form', 'multipart']).optional().meta({
      description:
        '`json` (default): the body as `application/json`. `form`: as `application/x-www-form-urlencoded` (an object body only): each property `name=value`, arrays as repeated names, nested objects as `name[key]=value`, `null` and absent properties left out. `multipart`: as `multipart/form-data` (an object body only): a part per property, arrays as repeated parts, objects as JSON text, the `files` properties as files.',
    }),
    files: z.array(z.string().min(1)).max(64).optional().meta({
      description:
        'With `multipart`: the body properties that carry a file, each as `{base64, filename?, content_type?}` or `{url, filename?, content_type?}` (fetched by the gateway under its egress rules), one file or a list of them.',
    }),
    query: z.enum(['remaining_arguments', 'none']).optional().meta({
      description:
        'What goes into the query string; default: the arguments not used in the URL (nor listed in `parameters`) for GET/HEAD/DELETE.',
    }),
    max_response_bytes: z
      .number()
      .int()
      .positive()
      .max(100 * 1024 * 1024)
      .default(1024 * 1024)
      .meta({ description: 'Reading stops (and the call fails) past this many response bytes.' }),
  })
  .superRefine((config, context) => {
    if (config.files !== undefined && config.body_encoding !== 'multipart')
      context.addIssue({
        code: 'custom',
        path: ['files'],
        message: 'files are sent in a multipart body only: set body_encoding to multipart',
      });
    const fixedHeaders = new Set(Object.keys(config.headers).map((name) => name.toLowerCase()));
    for (const [argument, parameter] of Object.entries(config.parameters ?? {})) {
      const path = ['parameters', argument];
      const wireName = parameter.name ?? argument;
      if (
        parameter.style !== undefined &&
        !HTTP_PARAMETER_STYLES[parameter.in].has(parameter.style)
      )
        context.addIssue({
          code: 'custom',
          path: [...path, 'style'],
          message: `style ${parameter.style} is not defined for ${parameter.in} parameters`,
        });
      if (parameter.style === 'deepObject' && parameter.explode === false)
        context.addIssue({
          code: 'custom',
          path: [...path, 'explode'],
          message: 'deepObject is defined for explode: true only',
        });
      if (parameter.allow_reserved !== undefined && parameter.in !== 'query')
        context.addIssue({
          code: 'custom',
          path: [...path, 'allow_reserved'],
          message: 'allow_reserved applies to query parameters only',
        });
      if (parameter.in === 'path' && !config.url.includes(`{${wireName}}`))
        context.addIssue({
          code: 'custom',
          path,
          message: `the URL has no {${wireName}} placeholder`,
        });
      if (parameter.in === 'header') {
        const lower = wireName.toLowerCase();
        if (!HEADER_NAME.test(wireName))
          context.addIssue({ code: 'custom', path, message: `"${wireName}" is not a header name` });
        else if (EXECUTOR_RESERVED_HEADERS.has(lower) || fixedHeaders.has(lower))
          context.addIssue({
            code: 'custom',
            path,
            message: `the header ${wireName} is set by the executor or by \`headers\``,
          });
      }
      if (parameter.in === 'cookie' && !HEADER_NAME.test(wireName))
        context.addIssue({ code: 'custom', path, message: `"${wireName}" is not a cookie name` });
    }
    if (
      typeof config.body === 'object' &&
      config.parameters !== undefined &&
      Object.hasOwn(config.parameters, config.body.argument)
    )
      context.addIssue({
        code: 'custom',
        path: ['body', 'argument'],
        message: `"${config.body.argument}" is also listed in parameters`,
      });
  })
  .meta({
    id: 'HttpExecutorConfig',
    description:
      'Calls an HTTP endpoint: `{arg}` placeholders in the URL are filled (URL-encoded) from the arguments.',
  });
/** Configuration of the `http` executor. */
export type HttpExecutorConfig = z.infer<typeof HttpExecutorConfigSchema>;

/** Calls a tool of an upstream MCP server over Streamable HTTP. */
export const McpExecutorConfigSchema = z
  .strictObject({
    kind: z.literal('mcp'),
    url: HttpUrlSchema.meta({
      description: "The server's MCP endpoint, e.g. `https://mcp.example.com/mcp`.",
    }),
    tool: z.string().min(1).optional().meta({
      description: "The tool's name on the upstream server; defaults to the ToolIR's name.",
    }),
    headers: z.record(z.string(), HeaderValueSchema).default({}),
  })
  .meta({
    id: 'McpExecutorConfig',
    description: 'Calls a tool of an upstream MCP server over Streamable HTTP.',
  });
/** Configuration of the `mcp` executor. */
export type McpExecutorConfig = z.infer<typeof McpExecutorConfigSchema>;

/** Runs a handler registered in code with `registerBuiltin`. */
export const BuiltinExecutorConfigSchema = z
  .strictObject({
    kind: z.literal('builtin'),
    handler: z.string().min(1).meta({ description: 'The name the handler was registered under.' }),
  })
  .meta({
    id: 'BuiltinExecutorConfig',
    description: 'Runs a handler registered in code with `registerBuiltin`.',
  });
/** Configuration of the `builtin` executor. */
export type BuiltinExecutorConfig = z.infer<typeof BuiltinExecutorConfigSchema>;

/** How a tool is executed: the ToolIR's `protocol_meta.toolgate.executor`. */
export const ExecutorConfigSchema = z
  .discriminatedUnion('kind', [
    HttpExecutorConfigSchema,
    McpExecutorConfigSchema,
    BuiltinExecutorConfigSchema,
  ])
  .meta({
    id: 'ExecutorConfig',
    description: "How a tool is executed: the ToolIR's `protocol_meta.toolgate.executor`.",
  });
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
