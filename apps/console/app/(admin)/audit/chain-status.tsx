'use client';

import type { AuditChainBreakReason, AuditVerification } from '@toolgate/contract';
import { JsonView } from '../../components/json-view';
import { formatMs, formatTime } from '../../lib/format';

const BREAKS: Record<AuditChainBreakReason, string> = {
  sequence_gap: 'an event is missing before it',
  prev_hash_mismatch: 'it does not link to the event before it',
  hash_mismatch: 'its content was changed',
  head_mismatch: 'the chain ends before its recorded head: events were deleted from the end',
  checkpoint_mismatch:
    'it is not the event verified earlier: history up to it was rewritten, or the chain cut back',
};

/** How the verification walked: from the checkpoint, or the whole chain. */
function walked(result: AuditVerification): string {
  const events = `${result.checked} ${result.checked === 1 ? 'event' : 'events'}`;
  const took = formatMs(result.duration_ms);
  if (result.mode === 'incremental' && result.checkpoint !== null) {
    return `incremental: ${events} from the checkpoint at #${result.checkpoint.seq}, verified ${formatTime(result.checkpoint.verified_at)}, in ${took}`;
  }
  return `full: ${events} from the first, in ${took}`;
}

/**
 * The chain's state as the page's verification found it, which continues from the checkpoint the
 * last one left; "Verify the whole chain" walks every event again, since the checkpoint trusts
 * what it verified before.
 */
export function ChainStatus({
  result,
  verifyingAll,
  onVerifyAll,
}: {
  result: AuditVerification;
  verifyingAll: boolean;
  onVerifyAll: () => void;
}) {
  const broken = result.first_broken_link;
  return (
    <div className="chain-status">
      {broken === null ? (
        <p className="success" role="status">
          Chain verified through #{result.to_seq} at {formatTime(result.verified_at)} (
          {walked(result)}).
        </p>
      ) : (
        <div className="state state-error" role="alert">
          <p>
            <strong>The audit chain is broken.</strong> Someone changed or removed events. First
            broken link: #{broken.seq}, {BREAKS[broken.reason]}.
          </p>
          <p className="hint">
            Intact through #{result.to_seq} as verified at {formatTime(result.verified_at)} (
            {walked(result)}).
          </p>
          <JsonView value={broken} />
        </div>
      )}
      <div className="actions">
        <button type="button" onClick={onVerifyAll} disabled={verifyingAll}>
          {verifyingAll ? 'Verifying the whole chain…' : 'Verify the whole chain'}
        </button>
        <span className="hint">
          Walks every event from the first, instead of trusting what the checkpoint verified.
        </span>
      </div>
    </div>
  );
}
