import { PROVIDERS, supportsToolSearch } from '@toolgate/adapters';
import { TagSchema, ToolNameSchema } from '@toolgate/toolir';
import { z } from 'zod';
import { ProviderObjectSchema } from '../calls/calls.schemas';
import {
  CursorParamSchema,
  optionalQueryFlag,
  queryFlag,
  TimestampSchema,
} from '../common/pagination';
import { SearchTextSchema } from '../tools/tools.schemas';
import {
  SnapshotHandleSchema,
  SUBJECT_HEADER_DESCRIPTION,
  SubjectHeaderSchema,
  VersionSpecSchema,
} from '../common/version-selection';

const listParam = <TItem extends z.ZodType<unknown, string>>(item: TItem, max: number) =>
  z
    .union([z.string().max(4096), z.array(z.string().max(4096)).max(max)])
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .filter((part) => part !== ''),
    )
    .pipe(z.array(item).max(max));

/** `name@spec`: spec is a version (`2.1.0`), a range (`^2.1`, `~2.1.3`) or `stable` / `canary`. */
export const ExportPinSchema = z
  .string()
  .max(300)
  .regex(/^[^@]+@[^@]+$/, 'must be name@version, name@range, name@stable or name@canary')
  .transform((pin) => {
    const at = pin.lastIndexOf('@');
    return { name: pin.slice(0, at), spec: pin.slice(at + 1) };
  })
  .pipe(z.object({ name: ToolNameSchema, spec: VersionSpecSchema }));

export const ExportFormatSchema = z
  .enum(PROVIDERS, { error: `must be one of ${PROVIDERS.join(', ')}` })
  .meta({ description: 'The provider wire format to write the tools in.' });

/** The most tools one export page holds, and the page a request without `limit` gets. */
export const MAX_EXPORT_PAGE = 1000;
export const DEFAULT_EXPORT_PAGE = 500;

export const ExportQuerySchema = z
  .strictObject({
    format: ExportFormatSchema,
    q: SearchTextSchema.optional().meta({
      description:
        'Only the tools matching these words, best match first (the tool search of `GET /v1/tools/search`): a model asks for the few tools a task needs instead of the whole catalog. Pages follow the ranking.',
    }),
    defer_loading: queryFlag(
      "Marks the tools for deferred loading and adds the provider's tool search tool, so the model loads a definition only when its search finds it (`openai-responses`: `defer_loading` with `tool_search`; `anthropic`: `defer_loading` with `tool_search_tool_bm25`). Other formats have no deferred loading and refuse it.",
    ),
    strict: optionalQueryFlag(
      'Strict schemas (OpenAI `strict`, Anthropic `strict`): `true` for every tool, `false` for none; absent, each tool as its version asks (`provider_hints.openai.strict` / `.anthropic.strict`). Every change strict mode makes is in `downgrades`; formats without it report it there.',
    ),
    eager: listParam(ToolNameSchema, 50).optional().meta({
      description:
        'With `defer_loading=true`: tools sent loaded all the same, the few a model uses on most turns.',
    }),
    tags: listParam(TagSchema, 50).optional().meta({
      description:
        'Only tools with all of these tags; repeat the parameter or separate with commas.',
    }),
    names: listParam(ToolNameSchema, 500).optional().meta({
      description: 'Only tools with these names; repeat the parameter or separate with commas.',
    }),
    pin: listParam(ExportPinSchema, 500).optional().meta({
      description:
        'Versions to serve instead of the release: `name@2.1.0`, `name@^2.1`, `name@stable`, `name@canary`; repeat or separate with commas. A draft is served only to an exact pin (to preview it); ranges and labels skip drafts.',
    }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_EXPORT_PAGE)
      .default(DEFAULT_EXPORT_PAGE)
      .meta({
        description: `Tools of the selection per page, 1-${MAX_EXPORT_PAGE}; a larger selection is paged (\`next_cursor\`, \`Link: rel="next"\`).`,
      }),
    cursor: CursorParamSchema.optional(),
  })
  .superRefine((query, context) => {
    if (query.defer_loading && !supportsToolSearch(query.format)) {
      context.addIssue({
        code: 'custom',
        path: ['defer_loading'],
        message: `${query.format} has no deferred loading (only ${PROVIDERS.filter(supportsToolSearch).join(' and ')}); export the few tools a task needs with \`q\` instead`,
      });
    }
    if (query.q !== undefined && query.names !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['names'],
        message: 'names and q each choose the tools: give one of them',
      });
    }
    if (query.eager !== undefined && !query.defer_loading) {
      context.addIssue({
        code: 'custom',
        path: ['eager'],
        message:
          'names the tools to keep loaded when the rest are deferred: add defer_loading=true',
      });
    }
  });
export type ExportQuery = z.output<typeof ExportQuerySchema>;

/** Who is asking, for canary bucketing; defaults to the API key. */
export const ExportSubjectHeaderSchema = SubjectHeaderSchema;

export const ExportHeadersSchema = z.looseObject({
  'x-toolgate-subject': ExportSubjectHeaderSchema.meta({ description: SUBJECT_HEADER_DESCRIPTION }),
  'if-none-match': z
    .string()
    .optional()
    .meta({ description: 'ETags of exports the caller has; a match answers 304 without a body.' }),
});
export type ExportHeaders = z.output<typeof ExportHeadersSchema>;

/** How one exported tool's version was chosen for this caller. */
export const ExportToolResolutionSchema = z
  .object({
    tool_id: z.uuid(),
    name: z.string(),
    version: z.string(),
    reason: z.enum(['pinned', 'canary', 'stable']).meta({
      description: '`pinned` by `?pin=`, the `canary` for this subject, or the `stable` version.',
    }),
    deprecated: z.boolean(),
    sunset_at: TimestampSchema.nullable(),
    successor_version: z.string().nullable(),
  })
  .meta({ id: 'ToolResolution' });
export type ExportToolResolution = z.infer<typeof ExportToolResolutionSchema>;

/** A tool the export left out for this caller, and why. */
export const ExportSkippedToolSchema = z
  .object({
    tool_id: z.uuid(),
    name: z.string(),
    reason: z.enum(['no_stable_release', 'sunset', 'brownout']),
  })
  .meta({ id: 'SkippedTool' });
export type ExportSkippedTool = z.infer<typeof ExportSkippedToolSchema>;

/** What the format could not carry of each tool's definition: nothing is lost silently. */
export const DowngradeReportSchema = z
  .object({
    entries: z.array(
      z.object({
        tool: z
          .string()
          .meta({ description: 'The ToolIR name of the tool; `*` for a request-level option.' }),
        path: z.string().meta({ description: "JSON Pointer into the tool's ToolIR." }),
        keyword: z.string(),
        action: z.enum(['dropped', 'rewritten', 'moved_to_description']),
        detail: z.string().optional(),
      }),
    ),
    names: z
      .array(z.object({ name: z.string(), wireName: z.string() }))
      .meta({ description: "Every tool's wire name, in the order of the tools." }),
    limits: z
      .array(
        z.object({
          tool: z.string(),
          limit: z.string(),
          actual: z.number(),
          max: z.number(),
          path: z.string().optional(),
        }),
      )
      .meta({
        description:
          'Provider limits the converted schemas exceed (the provider will likely refuse them).',
      }),
  })
  .meta({ id: 'DowngradeReport' });
export type DowngradeReport = z.infer<typeof DowngradeReportSchema>;

export const ExportSchema = z
  .object({
    format: ExportFormatSchema,
    tools: z.array(
      ProviderObjectSchema.meta({
        description: "One tool definition in the requested format, as the provider's API takes it.",
      }),
    ),
    request_options: ProviderObjectSchema.meta({
      description:
        'Request-level fields to spread into the provider call, e.g. `parallel_tool_calls` or `tool_choice`.',
    }),
    snapshot: SnapshotHandleSchema.meta({
      description:
        'Names the versions in `resolution`: send it with the calls the model makes with these tools (`snapshot` of POST /v1/calls, `?snapshot=` of POST /v1/calls/ir) and each runs the version shown here, whatever the release serves by then.',
    }),
    resolution: z.array(ExportToolResolutionSchema),
    skipped: z.array(ExportSkippedToolSchema),
    downgrades: DowngradeReportSchema,
    total: z.number().int().min(0).meta({
      description:
        'Tools in the whole selection (team, `tags`, `names` or the matches of `q`), on every page: exported plus skipped, summed over the pages.',
    }),
    next_cursor: z.string().nullable().meta({
      description:
        'Pass as `cursor` for the next page (same query otherwise); null on the last page. Each page has its own `snapshot`.',
    }),
  })
  .meta({ id: 'Export' });
export type ExportBody = z.infer<typeof ExportSchema>;
