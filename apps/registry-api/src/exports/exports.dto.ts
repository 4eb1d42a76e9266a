import { PROVIDERS } from '@toolgate/adapters';
import { TagSchema, ToolNameSchema } from '@toolgate/toolir';
import { z } from 'zod';

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
export const PinSchema = z
  .string()
  .max(300)
  .regex(/^[^@]+@[^@]+$/, 'must be name@version, name@range, name@stable or name@canary')
  .transform((pin) => {
    const at = pin.lastIndexOf('@');
    return { name: pin.slice(0, at), spec: pin.slice(at + 1) };
  })
  .pipe(z.object({ name: ToolNameSchema, spec: z.string().min(1).max(100) }));

export const ExportQuerySchema = z.strictObject({
  format: z.enum(PROVIDERS, { error: `must be one of ${PROVIDERS.join(', ')}` }),
  tags: listParam(TagSchema, 50).optional(),
  names: listParam(ToolNameSchema, 500).optional(),
  pin: listParam(PinSchema, 500).optional(),
});
export type ExportQueryDto = z.infer<typeof ExportQuerySchema>;

/** Who is asking, for canary bucketing; defaults to the API key. */
export const SubjectHeaderSchema = z.string().trim().min(1).max(256).optional();

export interface ToolResolutionDto {
  tool_id: string;
  name: string;
  version: string;
  reason: 'pinned' | 'canary' | 'stable';
  deprecated: boolean;
  sunset_at: string | null;
  successor_version: string | null;
}

export interface SkippedToolDto {
  tool_id: string;
  name: string;
  reason: 'no_stable_release' | 'sunset' | 'brownout';
}

export interface ExportBodyDto {
  format: string;
  tools: unknown[];
  request_options: object;
  resolution: ToolResolutionDto[];
  skipped: SkippedToolDto[];
  downgrades: unknown;
}
