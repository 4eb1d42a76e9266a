import { z } from 'zod';
import type { SloResult } from './slo';
import { TimeWindowSchema, type TimeWindow } from './slo-window';

export const SloQuerySchema = z.strictObject({
  window: TimeWindowSchema.default('24h'),
  /** One tool's name; without it, every tool the caller may see. */
  tool: z.string().trim().min(1).max(200).optional(),
});
export type SloQueryDto = z.infer<typeof SloQuerySchema>;

export interface SloBucketDto {
  start: string;
  calls: number;
  succeeded: number;
  failed: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

export interface SloToolDto {
  tool: string;
  tool_id: string;
  calls: number;
  success_rate: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  error_codes: Record<string, number>;
  destructive: boolean;
  approvals: { required: number; approved: number; denied: number; expired: number };
}

export interface SloReportDto {
  window: TimeWindow;
  from: string;
  to: string;
  buckets: SloBucketDto[];
  tools: SloToolDto[];
  slos: SloResult[];
}
