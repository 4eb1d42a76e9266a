import { murmur3 } from '../hash/murmur3';

/** Number of canary buckets: a percentage maps to `percent * 100` of them, so 0.01% steps are possible. */
export const CANARY_BUCKETS = 10_000;

/**
 * The subject's fixed bucket in [0, 10000) for one tool: MurmurHash3 (32-bit, pure JS) of tool id and subject,
 * so a subject stays on the same side of a rollout across calls, processes and machines,
 * and each tool's canary picks an independent sample of subjects.
 */
export function canaryBucket(subject: string, toolId: string): number {
  return murmur3(`${toolId}\u0000${subject}`) % CANARY_BUCKETS;
}

/** True when the subject falls inside a canary of `percent` (0-100) for this tool. */
export function isInCanary(subject: string, toolId: string, percent: number): boolean {
  return canaryBucket(subject, toolId) < Math.round(percent * 100);
}
