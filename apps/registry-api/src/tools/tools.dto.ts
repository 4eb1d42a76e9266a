import { PROVIDERS } from '@toolgate/adapters';
import { ExecutorConfigSchema } from '@toolgate/engine';
import {
  SemverSchema,
  ToolBehaviorSchema,
  ToolConstraintsSchema,
} from '@toolgate/toolir';
import { z } from 'zod';
import { ToolIdSchema, type ReleaseSummary, type Tool } from '@toolgate/contract';

export const ToolIdParamSchema = ToolIdSchema;
export const VersionParamSchema = SemverSchema;

export const VersionStatusSchema = z.enum(['draft', 'published']);

/**
 * Whether a publish also makes the version stable: `stable` does (as `PUT .../release/stable`
 * would), `none` leaves the release alone. Absent means `stable` for a tool's first published
 * version (a new tool is usable at once) and `none` for every later one (a new version goes into
 * rotation only when someone says so).
 */
export const PublishReleaseSchema = z.enum(['stable', 'none']);
export type PublishRelease = z.infer<typeof PublishReleaseSchema>;

const publishCommon = {
  status: VersionStatusSchema.default('published'),
  release: PublishReleaseSchema.optional(),
};

/**
 * Publish either a ToolIR, or a provider-format definition imported with the adapters. A wire
 * definition carries no behavior, constraints or executor: the request may give them beside it,
 * else they come from the version it succeeds (see `tool-version-fields.ts`).
 */
export const PublishVersionSchema = z
  .union([
    z.strictObject({ ir: z.record(z.string(), z.unknown()), ...publishCommon }),
    z.strictObject({
      format: z.enum(PROVIDERS, { error: `must be one of ${PROVIDERS.join(', ')}` }),
      definition: z.record(z.string(), z.unknown()),
      version: SemverSchema,
      ...publishCommon,
      behavior: ToolBehaviorSchema.optional(),
      constraints: ToolConstraintsSchema.optional(),
      executor: ExecutorConfigSchema.optional(),
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
export type PublishVersionDto = z.infer<typeof PublishVersionSchema>;

const BrownoutSchema = z
  .strictObject({ start: z.iso.datetime({ offset: true }), end: z.iso.datetime({ offset: true }) })
  .refine(
    (window) => Date.parse(window.start) < Date.parse(window.end),
    'a brownout must end after it starts',
  );

export const DeprecateVersionSchema = z.strictObject({
  /** From this instant on the version answers 410; must be in the future. */
  sunset_at: z.iso.datetime({ offset: true }),
  successor: SemverSchema.optional(),
  /** Windows before the sunset during which the version already answers 410, to flush out callers. */
  brownouts: z.array(BrownoutSchema).max(20).default([]),
});
export type DeprecateVersionDto = z.infer<typeof DeprecateVersionSchema>;

export const DiffQuerySchema = z.strictObject({ from: SemverSchema, to: SemverSchema });
export type DiffQueryDto = z.infer<typeof DiffQuerySchema>;

export type ReleaseSummaryDto = ReleaseSummary;
export type ToolDto = Tool;

export interface ToolVersionDto {
  tool_id: string;
  version: string;
  status: 'draft' | 'published';
  schema_version: string;
  created_by: string;
  created_at: string;
  deprecated_at: string | null;
  sunset_at: string | null;
  successor_version: string | null;
  brownouts: Array<{ start: string; end: string }>;
  ir?: unknown;
}

/** A field a wire-format definition cannot carry, filled in by the registry. */
export type InheritableField = 'behavior' | 'constraints' | 'executor';

/**
 * Where the fields a wire definition cannot carry came from: `inherited` from an earlier version,
 * or `defaulted` (with the value used, `null` for "no executor" and why). A field in neither list
 * was given in the request.
 */
export interface PublishFieldsReport {
  inherited: Array<{ field: InheritableField; from_version: string }>;
  defaulted: Array<{ field: InheritableField; value: unknown; reason: string }>;
}

/** What to call next to put a version into rotation. */
export interface NextStepDto {
  method: 'PUT' | 'POST';
  href: string;
  body?: Record<string, unknown>;
  description: string;
}

/** The answer to a publish: the version, and whether callers get it now. */
export interface PublishedVersionDto extends ToolVersionDto {
  /** Whether the version is in rotation (stable or canary) once this request returns. */
  served: boolean;
  /** The tool's release after the publish. */
  release: ReleaseSummaryDto;
  /** The request that puts the version into rotation; null when it is already served. */
  next: NextStepDto | null;
  /** Only for a wire-format publish (`format` + `definition`). */
  fields?: PublishFieldsReport;
}
