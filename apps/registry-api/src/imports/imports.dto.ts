import type { Provider } from '@toolgate/adapters';
import { TagSchema } from '@toolgate/toolir';
import { z } from 'zod';
import type { SchemaChange } from '../tools/json-schema-diff';
import type { ExportValidity } from './export-validity';
import type { OperationRef, SkippedOperation } from './openapi-to-tools';
import type { PlanAction, VersionBump } from './tool-version-plan';

const HttpUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(2048);

const NamePrefixSchema = z
  .string()
  .max(32)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be letters, digits, _ or -');

const TagsSchema = z
  .array(TagSchema)
  .max(16)
  .refine((tags) => new Set(tags).size === tags.length, 'tags must be unique');

export const ImportOpenApiSchema = z.strictObject({
  /** The OpenAPI 3.0/3.1 document: an object, or its JSON or YAML text. */
  document: z.union([z.record(z.string(), z.unknown()), z.string().min(1).max(5_000_000)]),
  /** Required with the installation admin key; a team key always imports into its own team. */
  team_id: z.uuid().optional(),
  /** Replaces the document's server URL, e.g. when it is relative. */
  base_url: HttpUrlSchema.optional(),
  /** Added to every imported tool, beside the operation's own tags. */
  tags: TagsSchema.default([]),
  /** Put before every tool name, e.g. `petstore_`. */
  name_prefix: NamePrefixSchema.optional(),
  /** Put before each security scheme's name to form the name of the secret the gateway resolves. */
  secret_prefix: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_.:/-]*$/, 'must be letters, digits or _ . : / -')
    .optional(),
  /** Publish the new versions and make them the stable release; drafts otherwise. */
  publish: z.boolean().default(false),
  /** Report what would happen; write nothing. */
  dry_run: z.boolean().default(false),
});
export type ImportOpenApiDto = z.infer<typeof ImportOpenApiSchema>;

export const RegisterMcpServerSchema = z.strictObject({
  /** Unique in the team; names the server in the console and in audit events. */
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits or _ . -'),
  /** The server's Streamable HTTP endpoint. */
  url: HttpUrlSchema,
  /** The header the upstream expects its credential in; its value comes from a secret at call time. */
  auth: z
    .strictObject({
      header: z
        .string()
        .min(1)
        .max(128)
        .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name'),
      secret_ref: z.string().min(1).max(256),
      /** Text before the secret's value, e.g. `Bearer `. */
      prefix: z.string().max(64).optional(),
    })
    .optional(),
  team_id: z.uuid().optional(),
  /** Put before every imported tool's name. */
  name_prefix: NamePrefixSchema.optional(),
  /** Publish imported and re-synced versions and make them stable; drafts otherwise. */
  publish: z.boolean().default(false),
});
export type RegisterMcpServerDto = z.infer<typeof RegisterMcpServerSchema>;

export const McpServerIdParamSchema = z.uuid();

/** One tool an import created, versioned or left alone. */
export interface ImportedToolDto {
  name: string;
  tool_id: string;
  action: PlanAction;
  version: string;
  previous_version: string | null;
  status: 'draft' | 'published';
  bump: VersionBump | null;
  changes: SchemaChange[];
  warnings: string[];
  /** Whether the version exports to each provider format. */
  exports: Record<Provider, ExportValidity>;
}

export interface OpenApiImportDto {
  dry_run: boolean;
  team_id: string;
  base_url: string | null;
  tools: Array<ImportedToolDto & { operation: OperationRef }>;
  skipped: SkippedOperation[];
}

export interface McpServerDto {
  id: string;
  team_id: string;
  name: string;
  url: string;
  auth: { header: string; secret_ref: string; prefix: string | null } | null;
  publish: boolean;
  created_by: string;
  created_at: string;
  last_synced_at: string | null;
  tools: Array<{ upstream_name: string; tool_id: string; removed_at: string | null }>;
}

/** What a registration or re-sync changed, tool by tool. */
export interface McpSyncDto {
  server: McpServerDto;
  added: ImportedToolDto[];
  changed: ImportedToolDto[];
  removed: Array<{
    name: string;
    tool_id: string;
    upstream_name: string;
    deprecated_versions: string[];
    sunset_at: string;
  }>;
  unchanged: Array<{ name: string; tool_id: string; version: string }>;
  skipped: Array<{ upstream_name: string; reason: string }>;
}
