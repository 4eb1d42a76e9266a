import { MAX_CALL_WAIT_MS } from '@toolgate/contract';

// The app factory and the MCP transport read these here; their schemas live in the contract.
export { IdempotencyKeySchema, type CallSummary as CallSummaryDto } from '@toolgate/contract';

/** Longest a request may wait for its calls; past it the answer is 202 with the call ids. */
export const MAX_WAIT_MS = MAX_CALL_WAIT_MS;
