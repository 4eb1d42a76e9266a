import type { ToolBehavior } from '@toolgate/toolir';

/** What an approval is bound to: exactly this tool version with exactly these arguments. */
export interface ApprovalBinding {
  tool_id: string;
  tool_version: string;
  /** `hashArguments(arguments)` of the call as it would run. */
  arguments_hash: string;
}

/** Why a call needs a person's approval. */
export type ApprovalReason = 'destructive' | 'always' | 'policy';

/** Why every call of a tool needs approval by its own behavior, before any policy; undefined when none does. */
export function approvalReasonOfBehavior(
  behavior: Pick<ToolBehavior, 'requires_approval' | 'destructive'>,
): Extract<ApprovalReason, 'always' | 'destructive'> | undefined {
  if (behavior.requires_approval === 'always') return 'always';
  if (behavior.requires_approval === 'if_destructive' && behavior.destructive) return 'destructive';
  return undefined;
}

/** A call asking the gate whether it may run. */
export interface ApprovalRequest {
  call_id: string;
  tool_name: string;
  binding: ApprovalBinding;
  reason: ApprovalReason;
  /** The policy's explanation when a policy asked for approval. */
  policy_reason?: string;
  /** The arguments, shown to the approver. */
  arguments: Record<string, unknown>;
}

/** The gate's answer: `approved` means the approval was consumed and the call may run now, once. */
export interface ApprovalCheck {
  status: 'approved' | 'pending' | 'denied' | 'expired';
  approval_id: string;
  /** The approver's note on a denial, shown to the model. */
  note?: string;
  /** When the approval was requested (epoch ms), so traces can show how long the call waited. */
  requested_at?: number;
  /** When a person decided (epoch ms); absent while pending. */
  decided_at?: number;
}

/**
 * Decides whether a call that needs approval may run. Implementations must bind an approval to
 * the call id, tool id + version and arguments hash, and consume it atomically when they answer `approved`.
 */
export interface ApprovalGate {
  check(request: ApprovalRequest): Promise<ApprovalCheck>;
}
