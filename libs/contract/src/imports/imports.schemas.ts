import { PROVIDERS } from '@toolgate/adapters';
import { TagSchema } from '@toolgate/toolir';
import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';
import { SchemaChangeSchema } from '../tool-versions/tool-versions.schemas';
import { ToolIdSchema } from '../tools/tools.schemas';

const HttpUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(2048);

const NamePrefixSchema = z
  .string()
  .max(32)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be letters, digits, _ or -');

const ImportTagsSchema = z
  .array(TagSchema)
  .max(16)
  .refine((tags) => new Set(tags).size === tags.length, 'tags must be unique');

/** The longest OpenAPI document text an import takes (OpenAI's own description is 3.4 MB). */
export const MAX_OPENAPI_DOCUMENT_CHARS = 5_000_000;
/**
 * The request body an import takes, in bytes: the longest document even as JSON text with every
 * character escaped to two bytes, and the other fields. Other routes keep the server's BODY_LIMIT.
 */
export const OPENAPI_IMPORT_BODY_LIMIT = 2 * MAX_OPENAPI_DOCUMENT_CHARS + 1024 * 1024;

export const ImportOpenApiSchema = z.strictObject({
  document: z
    .union([z.record(z.string(), z.unknown()), z.string().min(1).max(MAX_OPENAPI_DOCUMENT_CHARS)])
    .meta({
      description: `The OpenAPI 3.0/3.1 document: an object, or its JSON or YAML text (at most ${MAX_OPENAPI_DOCUMENT_CHARS.toLocaleString('en')} characters; the request may be up to ${OPENAPI_IMPORT_BODY_LIMIT.toLocaleString('en')} bytes).`,
    }),
  team_id: z.uuid().optional().meta({
    description:
      'Required with the installation admin key; a team key always imports into its own team.',
  }),
  base_url: HttpUrlSchema.optional().meta({
    description: "Replaces the document's server URL, e.g. when it is relative.",
  }),
  tags: ImportTagsSchema.default([]).meta({
    description: "Added to every imported tool, beside the operation's own tags.",
  }),
  name_prefix: NamePrefixSchema.optional().meta({
    description: 'Put before every tool name, e.g. `petstore_`.',
  }),
  secret_prefix: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_.:/-]*$/, 'must be letters, digits or _ . : / -')
    .optional()
    .meta({
      description:
        "Put before each security scheme's name to form the name of the secret the gateway resolves.",
    }),
  publish: z.boolean().default(false).meta({
    description: 'Publish the new versions and make them the stable release; drafts otherwise.',
  }),
  dry_run: z
    .boolean()
    .default(false)
    .meta({ description: 'Report what would happen; write nothing.' }),
});
export type ImportOpenApiRequest = z.input<typeof ImportOpenApiSchema>;
export type ImportOpenApiInput = z.output<typeof ImportOpenApiSchema>;

export const McpServerAuthInputSchema = z
  .strictObject({
    header: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name'),
    secret_ref: z.string().min(1).max(256).meta({
      description: 'The team secret whose value the header carries, resolved at call time.',
    }),
    prefix: z
      .string()
      .max(64)
      .optional()
      .meta({ description: "Text before the secret's value, e.g. `Bearer `." }),
  })
  .meta({
    description:
      'The header the upstream expects its credential in; its value comes from a secret at call time.',
  });

/**
 * Behavior for the hints an upstream tool's annotations leave out, in place of MCP's defaults
 * (`readOnlyHint` false, `destructiveHint` true, `idempotentHint` false, `openWorldHint` true).
 */
export const McpBehaviorDefaultsSchema = z
  .strictObject({
    read_only: z.boolean().optional().meta({
      description: 'For tools without `readOnlyHint`; a read-only tool is never destructive.',
    }),
    destructive: z.boolean().optional().meta({
      description:
        'For tools without `destructiveHint`; destructive calls wait for a person to approve them.',
    }),
    idempotent: z.boolean().optional().meta({
      description: 'For tools without `idempotentHint`; only idempotent calls are retried.',
    }),
    open_world: z.boolean().optional().meta({ description: 'For tools without `openWorldHint`.' }),
  })
  .meta({
    id: 'McpBehaviorDefaults',
    description:
      "Applied only where the upstream tool's annotations give no hint; kept for later syncs of the server.",
  });
export type McpBehaviorDefaults = z.infer<typeof McpBehaviorDefaultsSchema>;

export const RegisterMcpServerSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits or _ . -')
    .meta({
      description: 'Unique in the team; names the server in the console and in audit events.',
    }),
  url: HttpUrlSchema.meta({ description: "The server's Streamable HTTP endpoint." }),
  auth: McpServerAuthInputSchema.optional(),
  team_id: z.uuid().optional().meta({
    description:
      'Required with the installation admin key; a team key always registers in its own team.',
  }),
  name_prefix: NamePrefixSchema.optional().meta({
    description: "Put before every imported tool's name.",
  }),
  publish: z.boolean().default(false).meta({
    description: 'Publish imported and re-synced versions and make them stable; drafts otherwise.',
  }),
  defaults: McpBehaviorDefaultsSchema.optional(),
});
export type RegisterMcpServerRequest = z.input<typeof RegisterMcpServerSchema>;
export type RegisterMcpServerInput = z.output<typeof RegisterMcpServerSchema>;

export const McpServerIdSchema = z.uuid().meta({ description: "The registered MCP server's id." });

/** Whether one imported tool exports to one provider format. */
export const ImportExportValiditySchema = z.object({
  valid: z.boolean(),
  downgrades: z.number().int().min(0).meta({
    description: 'Schema keywords the format dropped or rewrote (the adapter’s downgrade report).',
  }),
  problems: z
    .array(z.string())
    .meta({ description: "Provider limits the tool exceeds, or the adapter's refusal." }),
});
export type ImportExportValidity = z.infer<typeof ImportExportValiditySchema>;

export const ImportActionSchema = z
  .enum(['created', 'new_version', 'published_draft', 'unchanged'])
  .meta({
    description:
      '`created`: a new tool at 1.0.0; `new_version`: the next version of an existing tool; `published_draft`: an unchanged newest draft, published because the import publishes; `unchanged`: nothing written.',
  });

/** One tool an import created, versioned or left alone. */
export const ImportedToolSchema = z
  .object({
    name: z.string(),
    tool_id: ToolIdSchema,
    action: ImportActionSchema,
    version: z
      .string()
      .meta({ description: 'The version the import wrote, or the unchanged newest one.' }),
    previous_version: z
      .string()
      .nullable()
      .meta({ description: 'The newest version before the import; null for a new tool.' }),
    status: z.enum(['draft', 'published']),
    bump: z.enum(['major', 'minor', 'patch']).nullable().meta({
      description:
        'Breaking argument changes bump the major, other argument changes the minor, the rest the patch; null unless `new_version` of a versioned tool.',
    }),
    changes: z
      .array(SchemaChangeSchema)
      .meta({ description: 'How the arguments changed from `previous_version`.' }),
    warnings: z
      .array(z.string())
      .meta({ description: 'What the tool carries differently from its source.' }),
    needs_approval: z.boolean().meta({
      description:
        "Whether every call waits for a person's approval, by the tool's behavior (destructive, or approval always required); policies may require it for more calls.",
    }),
    exports: z.record(z.enum(PROVIDERS), ImportExportValiditySchema).meta({
      description: 'Whether the version exports to each provider format, as GET /v1/exports would.',
    }),
    secrets: z
      .array(
        z.object({
          name: z.string(),
          set: z.boolean().meta({ description: 'Whether the team has set this secret.' }),
        }),
      )
      .meta({
        description:
          "The team secrets the tool's calls send (by name, never a value): each must be set (POST /v1/secrets) before a call can run; a call without it fails with `secret_unavailable` naming it.",
      }),
  })
  .meta({ id: 'ImportedTool' });
export type ImportedTool = z.infer<typeof ImportedToolSchema>;

/** The operation of an OpenAPI document a tool came from. */
export const OpenApiOperationRefSchema = z.object({
  method: z.string().meta({ description: 'Upper case: GET, POST, ...' }),
  path: z.string(),
  operation_id: z.string().nullable(),
});
export type OpenApiOperationRef = z.infer<typeof OpenApiOperationRefSchema>;

export const OpenApiImportSchema = z
  .object({
    dry_run: z.boolean(),
    team_id: z.uuid(),
    base_url: z.string().nullable().meta({
      description: 'The server URL the tools call; null when the document has none usable.',
    }),
    tools: z.array(ImportedToolSchema.extend({ operation: OpenApiOperationRefSchema })),
    skipped: z
      .array(OpenApiOperationRefSchema.extend({ reason: z.string() }))
      .meta({ description: 'Operations that did not become tools, and why.' }),
  })
  .meta({ id: 'OpenApiImport' });
export type OpenApiImport = z.infer<typeof OpenApiImportSchema>;

export const McpServerSchema = z
  .object({
    id: McpServerIdSchema,
    team_id: z.uuid(),
    name: z.string(),
    url: z.string(),
    auth: z
      .object({ header: z.string(), secret_ref: z.string(), prefix: z.string().nullable() })
      .nullable()
      .meta({
        description: 'The credential header and the secret it comes from (never its value).',
      }),
    publish: z.boolean(),
    created_by: z.string(),
    created_at: TimestampSchema,
    last_synced_at: TimestampSchema.nullable(),
    tools: z
      .array(
        z.object({
          upstream_name: z.string(),
          tool_id: ToolIdSchema,
          removed_at: TimestampSchema.nullable().meta({
            description:
              'When a sync found the tool gone upstream (its versions deprecated); null while listed.',
          }),
        }),
      )
      .meta({ description: 'The tools mirrored from the server, by upstream name.' }),
  })
  .meta({ id: 'McpServer' });
export type McpServer = z.infer<typeof McpServerSchema>;

export const McpServerListSchema = z.object({ items: z.array(McpServerSchema) });
export type McpServerList = z.infer<typeof McpServerListSchema>;

/** What a registration or re-sync changed, tool by tool. */
export const McpServerSyncSchema = z
  .object({
    server: McpServerSchema,
    added: z
      .array(ImportedToolSchema)
      .meta({ description: 'Upstream tools seen for the first time.' }),
    changed: z
      .array(ImportedToolSchema)
      .meta({ description: 'Mirrored tools that got a new version.' }),
    removed: z
      .array(
        z.object({
          name: z.string(),
          tool_id: ToolIdSchema,
          upstream_name: z.string(),
          deprecated_versions: z.array(z.string()),
          sunset_at: TimestampSchema,
        }),
      )
      .meta({
        description: 'Tools gone upstream: their versions are deprecated until `sunset_at`.',
      }),
    unchanged: z.array(z.object({ name: z.string(), tool_id: ToolIdSchema, version: z.string() })),
    skipped: z
      .array(z.object({ upstream_name: z.string(), reason: z.string() }))
      .meta({ description: 'Upstream tools that could not become tools, and why.' }),
    tools_needing_approval: z.number().int().min(0).meta({
      description:
        "How many of the server's tools (added, changed and unchanged) wait for a person's approval on every call (`needs_approval`).",
    }),
  })
  .meta({ id: 'McpServerSync' });
export type McpServerSync = z.infer<typeof McpServerSyncSchema>;
