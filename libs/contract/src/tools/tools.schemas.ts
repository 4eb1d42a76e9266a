import { TagSchema, ToolNameSchema } from '@toolgate/toolir';
import { z } from 'zod';
import { CursorParamSchema, LimitSchema, pageOf, TimestampSchema } from '../common/pagination';

export const ToolIdSchema = z.uuid().meta({ description: "The tool's stable id." });

const TagsSchema = z
  .array(TagSchema)
  .max(32)
  .refine((tags) => new Set(tags).size === tags.length, 'tags must be unique');

export const VisibilitySchema = z
  .enum(['private', 'public'])
  .meta({ description: '`public` tools are visible (read-only) to every team.' });

export const CreateToolSchema = z.strictObject({
  name: ToolNameSchema,
  id: z.uuid().optional().meta({
    description:
      'The stable id; generated when absent. A ToolIR published later must carry the same id.',
  }),
  description: z.string().max(16_384).default(''),
  tags: TagsSchema.default([]),
  visibility: VisibilitySchema.default('private'),
  team_id: z.uuid().optional().meta({
    description:
      'Required with the installation admin key; a team key always creates in its own team.',
  }),
});
export type CreateToolRequest = z.input<typeof CreateToolSchema>;
export type CreateToolInput = z.output<typeof CreateToolSchema>;

/** A query value that may be repeated (`?tag=a&tag=b`) or comma-separated (`?tag=a,b`). */
function listParam<TItem extends z.ZodType<unknown, string>>(item: TItem) {
  return z
    .union([z.string().max(2048), z.array(z.string().max(2048)).max(50)])
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .filter((part) => part !== ''),
    )
    .pipe(z.array(item).max(50));
}

/** Words to search the catalog for (see the tool search in the registry). */
export const SearchTextSchema = z.string().trim().min(1).max(200);

export const ListToolsQuerySchema = z.strictObject({
  tag: listParam(TagSchema).optional().meta({
    description: 'Only tools with all of these tags; repeat the parameter or separate with commas.',
  }),
  team: z.uuid().optional().meta({ description: 'Only tools of this team.' }),
  status: z
    .enum(['draft', 'published', 'deprecated'])
    .optional()
    .meta({ description: 'Only tools whose latest version has this status.' }),
  q: SearchTextSchema.optional().meta({
    description:
      'Words to find in names, tags, descriptions and parameters; the list is then every match, best first.',
  }),
  cursor: CursorParamSchema.optional(),
  limit: LimitSchema,
});
export type ListToolsQuery = z.output<typeof ListToolsQuerySchema>;

export const SearchToolsQuerySchema = z.strictObject({
  q: SearchTextSchema.meta({
    description: 'Words to find in names, tags, descriptions and parameters.',
  }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type SearchToolsQuery = z.output<typeof SearchToolsQuerySchema>;

/** Which versions callers get: the stable one, and a canary for a share of callers. */
export const ReleaseSummarySchema = z
  .object({
    stable_version: z.string().nullable(),
    canary_version: z.string().nullable(),
    canary_percent: z.number().min(0).max(100),
  })
  .meta({ id: 'ReleaseSummary' });
export type ReleaseSummary = z.infer<typeof ReleaseSummarySchema>;

export const ToolSchema = z
  .object({
    id: ToolIdSchema,
    team_id: z.uuid(),
    name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    visibility: VisibilitySchema,
    release: ReleaseSummarySchema.nullable().meta({
      description: 'Null until a version is released.',
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Tool' });
export type Tool = z.infer<typeof ToolSchema>;

/** What a list shows beside a tool's name: the markers that change how people treat it. */
export const ToolBadgesSchema = z
  .object({
    destructive: z.boolean().meta({
      description:
        'The served version (stable, else the newest published) declares `behavior.destructive`.',
    }),
    imported_from: z
      .enum(['openapi', 'mcp'])
      .nullable()
      .meta({ description: 'Where the served version was imported from; null when written here.' }),
    deprecated: z
      .array(z.object({ version: z.string(), sunset_at: TimestampSchema.nullable() }))
      .meta({
        description: 'Published versions that are deprecated, newest first, with their sunset.',
      }),
  })
  .meta({ id: 'ToolBadges' });
export type ToolBadges = z.infer<typeof ToolBadgesSchema>;

/** A tool as lists answer it: with its badges. */
export const ToolListItemSchema = ToolSchema.extend({ badges: ToolBadgesSchema }).meta({
  id: 'ToolListItem',
});
export type ToolListItem = z.infer<typeof ToolListItemSchema>;

export const ToolPageSchema = pageOf(ToolListItemSchema);
export type ToolPage = z.infer<typeof ToolPageSchema>;

export const ToolSearchResultSchema = z.object({
  items: z.array(
    ToolSchema.extend({ rank: z.number().meta({ description: 'Relevance; higher is better.' }) }),
  ),
});
export type ToolSearchResult = z.infer<typeof ToolSearchResultSchema>;
