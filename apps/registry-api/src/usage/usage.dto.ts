import { z } from 'zod';
import { TimeWindowSchema, type TimeWindow } from '../metrics/slo-window';

export const UsageQuerySchema = z.strictObject({
  window: TimeWindowSchema.default('7d'),
});
export type UsageQueryDto = z.infer<typeof UsageQuerySchema>;

/** One caller of a version: a team, its key (null for calls without one) and the actor. */
export interface VersionCallerDto {
  team_id: string;
  team_name: string;
  key_id: string | null;
  key_name: string | null;
  actor: string;
  calls: number;
  last_call_at: string;
}

export interface VersionUsageDto {
  tool: string;
  version: string;
  window: TimeWindow;
  callers: VersionCallerDto[];
}
