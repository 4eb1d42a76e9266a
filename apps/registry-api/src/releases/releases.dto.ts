import { SemverSchema } from '@toolgate/toolir';
import { z } from 'zod';

export const SetStableSchema = z.strictObject({ version: SemverSchema });
export type SetStableDto = z.infer<typeof SetStableSchema>;

export const SetCanarySchema = z.strictObject({
  version: SemverSchema,
  percent: z.number().int().min(0).max(100),
});
export type SetCanaryDto = z.infer<typeof SetCanarySchema>;

export const EmptyBodySchema = z.strictObject({}).optional();

export interface ReleaseDto {
  tool_id: string;
  stable_version: string | null;
  canary_version: string | null;
  canary_percent: number;
  previous_stable_version: string | null;
  updated_by: string | null;
  updated_at: string | null;
}
