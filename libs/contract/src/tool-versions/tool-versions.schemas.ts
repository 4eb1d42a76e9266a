import { PROVIDERS } from '@toolgate/adapters';
import {
  SemverSchema,
  ToolBehaviorSchema,
  ToolConstraintsSchema,
  ToolIRSchema,
} from '@toolgate/toolir';
import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';
import { ExecutorConfigSchema } from '../executor/executor-config';
import { ReleaseSummarySchema, ToolIdSchema } from '../tools/tools.schemas';

/** A version in a path: `/v1/tools/{toolId}/versions/{version}`. */
export const ToolVersionParamSchema = SemverSchema.meta({
  description: 'A version of the tool (semver), e.g. `1.2.0`.',
});

/**
 * A ToolIR as an object. The API checks it with `parseToolIR` after the request parsed, so that
 * every problem of a definition is one 422 (`invalid_tool_definition`) with paths into the body,
 * not a 400; the document still shows the ToolIR's real shape.
 */
export const ToolIRObjectSchema = z.record(z.string(), z.unknown()).meta({
  id: 'ToolIR',
  description: 'One version of one tool in the provider-neutral ToolIR format.',
  // Typed by hand: zod-openapi's meta types augment `zod/v4`, which `zod`'s meta does not see.
  override: ({ jsonSchema }: { jsonSchema: z.core.JSONSchema.BaseSchema }) => {
    const { $schema: _dialect, ...toolIr } = z.toJSONSchema(ToolIRSchema, {
      target: 'draft-2020-12',
      io: 'input',
    });
    // The record's own keywords would loosen what the ToolIR schema says.
    delete jsonSchema.propertyNames;
    Object.assign(jsonSchema, toolIr);
  },
});

export const ToolVersionStatusSchema = z
  .enum(['draft', 'published'])
  .meta({ description: 'A `draft` is never served; publish it first.' });

/**
 * Whether a publish also makes the version stable: `stable` does (as `PUT .../release/stable`
 * would), `none` leaves the release alone. Absent means `stable` for a tool's first published
 * version (a new tool is usable at once) and `none` for every later one (a new version goes into
 * rotation only when someone says so).
 */
export const PublishReleaseSchema = z.enum(['stable', 'none']).meta({
  description:
    "`stable` also makes the version stable; `none` leaves the release alone. Default: `stable` for the tool's first published version, `none` for later ones.",
});
export type PublishRelease = z.infer<typeof PublishReleaseSchema>;

const publishCommon = {
  status: ToolVersionStatusSchema.default('published'),
  release: PublishReleaseSchema.optional(),
};

/**
 * Publish either a ToolIR, or a provider-format definition imported with the adapters. A wire
 * definition carries no behavior, constraints or executor: the request may give them beside it,
 * else they come from the version it succeeds (see `tool-version-fields.ts` in the API).
 */
export const PublishToolVersionSchema = z
  .union([
    z.strictObject({ ir: ToolIRObjectSchema, ...publishCommon }),
    z.strictObject({
      format: z.enum(PROVIDERS, { error: `must be one of ${PROVIDERS.join(', ')}` }),
      definition: z
        .record(z.string(), z.unknown())
        .meta({ description: "The tool in the provider's own format." }),
      version: SemverSchema,
      ...publishCommon,
      behavior: ToolBehaviorSchema.optional().meta({
        description: 'Default: inherited from the version this one succeeds.',
      }),
      constraints: ToolConstraintsSchema.optional().meta({
        description: 'Default: inherited from the version this one succeeds.',
      }),
      executor: ExecutorConfigSchema.optional().meta({
        description:
          'How calls of this version are executed (`protocol_meta.toolgate.executor` of the ToolIR). Default: inherited from the version this one succeeds.',
      }),
    }),
  ])
  .superRefine((body, context) => {
    if (body.status === 'draft' && body.release === 'stable') {
      context.addIssue({
        code: 'custom',
        path: ['release'],
        message: 'a draft cannot be released; publish it first, or leave release out',
      });
    }
  });
export type PublishToolVersionRequest = z.input<typeof PublishToolVersionSchema>;
export type PublishToolVersionInput = z.output<typeof PublishToolVersionSchema>;

export const BrownoutSchema = z
  .strictObject({ start: TimestampSchema, end: TimestampSchema })
  .refine(
    (window) => Date.parse(window.start) < Date.parse(window.end),
    'a brownout must end after it starts',
  );

export const DeprecateToolVersionSchema = z.strictObject({
  sunset_at: TimestampSchema.meta({
    description: 'From this instant on the version answers 410; must be in the future.',
  }),
  successor: SemverSchema.optional().meta({
    description: 'A published, not deprecated version callers should move to.',
  }),
  brownouts: z.array(BrownoutSchema).max(20).default([]).meta({
    description:
      'Windows before the sunset during which the version already answers 410, to flush out callers.',
  }),
});
export type DeprecateToolVersionRequest = z.input<typeof DeprecateToolVersionSchema>;
export type DeprecateToolVersionInput = z.output<typeof DeprecateToolVersionSchema>;

export const ToolVersionDiffQuerySchema = z.strictObject({
  from: SemverSchema.meta({ description: 'The older version.' }),
  to: SemverSchema.meta({ description: 'The newer version.' }),
});
export type ToolVersionDiffQuery = z.output<typeof ToolVersionDiffQuerySchema>;

export const ToolVersionSchema = z
  .object({
    tool_id: ToolIdSchema,
    version: z.string(),
    status: ToolVersionStatusSchema,
    schema_version: z.string().meta({ description: 'The ToolIR format version.' }),
    created_by: z.string().meta({ description: 'The actor that published or drafted it.' }),
    created_at: TimestampSchema,
    deprecated_at: TimestampSchema.nullable(),
    sunset_at: TimestampSchema.nullable().meta({
      description: 'From this instant on the version answers 410; null unless deprecated.',
    }),
    successor_version: z.string().nullable(),
    brownouts: z
      .array(z.object({ start: TimestampSchema, end: TimestampSchema }))
      .meta({ description: 'Windows before the sunset during which the version answers 410.' }),
  })
  .meta({ id: 'ToolVersion' });
export type ToolVersion = z.infer<typeof ToolVersionSchema>;

export const ToolVersionWithIrSchema = ToolVersionSchema.extend({ ir: ToolIRObjectSchema }).meta({
  id: 'ToolVersionWithIr',
});
export type ToolVersionWithIr = z.infer<typeof ToolVersionWithIrSchema>;

export const ToolVersionListSchema = z.object({
  items: z.array(ToolVersionSchema).meta({ description: 'Every version, newest first.' }),
});
export type ToolVersionList = z.infer<typeof ToolVersionListSchema>;

/** A field a wire-format definition cannot carry, filled in by the registry. */
export const InheritableFieldSchema = z.enum(['behavior', 'constraints', 'executor']);
export type InheritableField = z.infer<typeof InheritableFieldSchema>;

/**
 * Where the fields a wire definition cannot carry came from: `inherited` from an earlier version,
 * or `defaulted` (with the value used, `null` for "no executor" and why). A field in neither list
 * was given in the request.
 */
export const PublishFieldsReportSchema = z
  .object({
    inherited: z.array(z.object({ field: InheritableFieldSchema, from_version: z.string() })),
    defaulted: z.array(
      z.object({
        field: InheritableFieldSchema,
        value: z.unknown().meta({ description: 'The value used; null for "no executor".' }),
        reason: z.string(),
      }),
    ),
  })
  .meta({
    id: 'PublishFieldsReport',
    description:
      'Where the fields a provider definition cannot carry came from; a field in neither list was given in the request.',
  });
export type PublishFieldsReport = z.infer<typeof PublishFieldsReportSchema>;

/** What to call next to put a version into rotation. */
export const NextStepSchema = z
  .object({
    method: z.enum(['PUT', 'POST']),
    href: z.string(),
    body: z.record(z.string(), z.unknown()).optional(),
    description: z.string(),
  })
  .meta({ id: 'NextStep', description: 'The request that puts the version into rotation.' });
export type NextStep = z.infer<typeof NextStepSchema>;

/** The answer to a publish: the version, and whether callers get it now. */
export const PublishedVersionSchema = ToolVersionWithIrSchema.extend({
  served: z.boolean().meta({
    description: 'Whether the version is in rotation (stable or canary) once the request returns.',
  }),
  release: ReleaseSummarySchema.meta({ description: "The tool's release after the publish." }),
  next: NextStepSchema.nullable().meta({
    description: 'The request that puts the version into rotation; null when it is already served.',
  }),
  fields: PublishFieldsReportSchema.optional().meta({
    description: 'Only for a provider-format publish (`format` + `definition`).',
  }),
}).meta({ id: 'PublishedVersion' });
export type PublishedVersion = z.infer<typeof PublishedVersionSchema>;

/**
 * What changed between two versions of a tool's input, from the caller's point of view: its JSON
 * Schema parameters, or its input format (JSON or free text) and grammar.
 */
export const SchemaChangeKindSchema = z.enum([
  'property_removed',
  'property_added',
  'required_added',
  'required_removed',
  'type_narrowed',
  'type_widened',
  'enum_value_removed',
  'enum_value_added',
  'enum_added',
  'enum_removed',
  'const_changed',
  'additional_properties_closed',
  'additional_properties_opened',
  'constraint_tightened',
  'constraint_loosened',
  'variant_removed',
  'variant_added',
  'reference_changed',
  'input_format_changed',
  'grammar_added',
  'grammar_removed',
  'grammar_changed',
  'cut_argument_repair_enabled',
  'cut_argument_repair_disabled',
  'compensation_changed',
  'concurrency_changed',
  'cache_added',
  'cache_removed',
  'cache_changed',
]);
export type SchemaChangeKind = z.infer<typeof SchemaChangeKindSchema>;

export const SchemaChangeSchema = z
  .object({
    kind: SchemaChangeKindSchema,
    path: z
      .string()
      .meta({ description: 'JSON Pointer into the new (or, for removals, the old) schema.' }),
    breaking: z.boolean().meta({ description: 'Whether callers of the old version may break.' }),
    message: z.string(),
  })
  .meta({ id: 'SchemaChange' });
export type SchemaChange = z.infer<typeof SchemaChangeSchema>;

export const ToolVersionDiffSchema = z
  .object({
    tool_id: ToolIdSchema,
    from: z.string(),
    to: z.string(),
    breaking: z.boolean().meta({ description: 'Whether any change is breaking.' }),
    changes: z.array(SchemaChangeSchema),
  })
  .meta({ id: 'ToolVersionDiff' });
export type ToolVersionDiff = z.infer<typeof ToolVersionDiffSchema>;
