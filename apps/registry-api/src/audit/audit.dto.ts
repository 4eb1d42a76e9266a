import { z } from 'zod';
import { CursorParamSchema, LimitSchema } from '../common/pagination';

export const AuditQuerySchema = z.strictObject({
  actor: z.string().min(1).max(200).optional(),
  entity_type: z.string().min(1).max(100).optional(),
  entity_id: z.string().min(1).max(200).optional(),
  action: z.string().min(1).max(100).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  cursor: CursorParamSchema.optional(),
  limit: LimitSchema,
});
export type AuditQueryDto = z.infer<typeof AuditQuerySchema>;

export interface AuditEventDto {
  seq: string;
  id: string;
  occurred_at: string;
  actor: string;
  team_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  data: unknown;
  prev_hash: string;
  hash: string;
}
