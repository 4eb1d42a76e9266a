/** The registry API's response shapes the console reads (see apps/registry-api/src/**\/*.dto.ts). */

import { z } from 'zod';

export const RoleSchema = z.enum(['viewer', 'approver', 'admin']);
export type Role = z.infer<typeof RoleSchema>;

export const ConsoleUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
});
export type ConsoleUser = z.infer<typeof ConsoleUserSchema>;

/** Checked on arrival: the role decides what the pages offer and the token guards every change. */
export const ConsoleSessionSchema = z.object({
  user: ConsoleUserSchema,
  csrf_token: z.string().min(1),
  expires_at: z.string(),
});
export type ConsoleSession = z.infer<typeof ConsoleSessionSchema>;

export interface Page<TItem> {
  items: TItem[];
  next_cursor?: string | null;
}

export interface ReleaseSummary {
  stable_version: string | null;
  canary_version: string | null;
  canary_percent: number;
}

export interface Tool {
  id: string;
  team_id: string;
  name: string;
  description: string;
  tags: string[];
  visibility: 'private' | 'public';
  release: ReleaseSummary | null;
  created_at: string;
  updated_at: string;
}

export interface ToolVersion {
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

export interface Team {
  id: string;
  slug: string;
  name: string;
  /** Whoever made a destructive call may decide its approval too (four eyes when false). */
  allow_self_approval: boolean;
  created_at: string;
}

export interface Release extends ReleaseSummary {
  tool_id: string;
  previous_stable_version: string | null;
  updated_by: string | null;
  updated_at: string | null;
}

export interface VersionStats {
  version: string;
  calls: number;
  succeeded: number;
  validation_failures: number;
  success_rate: number | null;
  validation_failure_rate: number | null;
  p95_latency_ms: number | null;
}

export interface ReleaseHealth extends ReleaseSummary {
  tool_id: string;
  window: { from: string; to: string };
  stable: VersionStats | null;
  canary: VersionStats | null;
  verdict: string;
  crossed: unknown[];
}

export interface SchemaChange {
  kind: string;
  path: string;
  breaking: boolean;
  message: string;
}

export interface VersionDiff {
  tool_id: string;
  from: string;
  to: string;
  breaking: boolean;
  changes: SchemaChange[];
}

export interface ExportBody {
  format: string;
  tools: unknown[];
  request_options: object;
  resolution: Array<{
    tool_id: string;
    name: string;
    version: string;
    reason: string;
    deprecated: boolean;
  }>;
  skipped: Array<{ tool_id: string; name: string; reason: string }>;
  downgrades: unknown;
}

export interface VersionUsage {
  tool: string;
  version: string;
  window: string;
  callers: Array<{
    team_id: string | null;
    team_name: string | null;
    key_id: string | null;
    key_name: string | null;
    actor: string;
    calls: number;
    last_call_at: string | null;
  }>;
}

export interface Policy {
  id: string;
  scope: string;
  team_id: string | null;
  revision: number;
  text: string;
  active: boolean;
  created_by: string;
  created_at: string;
}

export interface PolicyDecision {
  effect: 'allow' | 'deny' | 'require_approval';
  reason?: string;
  policy_revision: string;
  matched_rule?: string;
  evaluation_errors?: Array<{ policy_id: string; message: string }>;
}

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

export interface Approval {
  id: string;
  call_id: string;
  tool_id: string;
  tool_version: string;
  reason: string;
  policy_reason: string | null;
  status: ApprovalStatus;
  requested_by: string;
  decided_by: string | null;
  decision_reason: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
}

export const CALL_STATUSES = [
  'queued',
  'running',
  'awaiting_approval',
  'succeeded',
  'failed',
  'cancelled',
  'outcome_unknown',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export interface Call {
  id: string;
  team_id: string;
  status: CallStatus;
  provider: string;
  provider_call_id: string;
  conversation_id: string | null;
  tool: { id: string; name: string; version: string };
  arguments: unknown;
  result: unknown;
  error_code: string | null;
  attempts: number;
  latency_ms: number | null;
  decision: { effect: string; rule: string | null; policy_revision: string | null } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface CallTimeline {
  call_id: string;
  events: Array<{ at: string; type: string; detail: unknown }>;
}

export interface AuditEvent {
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

export interface AuditVerification {
  ok: boolean;
  checked: number;
  head: { seq: string; hash: string };
  first_broken_link: unknown;
}

export type SloWindow = '1h' | '24h' | '7d' | '30d';

export interface SloReport {
  window: SloWindow;
  from: string;
  to: string;
  buckets: Array<{
    start: string;
    calls: number;
    succeeded: number;
    failed: number;
    p50_ms: number | null;
    p95_ms: number | null;
  }>;
  tools: Array<{
    tool: string;
    calls: number;
    success_rate: number | null;
    p50_ms: number | null;
    p95_ms: number | null;
    error_codes: Record<string, number>;
    destructive: boolean;
    approvals: { required: number; approved: number; denied: number; expired: number };
  }>;
  slos: Array<{ name: string; target: number; actual: number | null; met: boolean | null }>;
}

export interface ConsoleUserDetail extends ConsoleUser {
  disabled: boolean;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** A tool version referencing a secret, and where in its executor config. */
export interface SecretReference {
  tool_id: string;
  tool_name: string;
  version: string;
  status: 'draft' | 'published';
  release: 'stable' | 'canary' | null;
  pointer: string;
}

/** A stored secret: the API never returns its value. */
export interface Secret {
  name: string;
  team_id: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  referenced_by: SecretReference[];
}
