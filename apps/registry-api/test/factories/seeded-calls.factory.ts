import { randomUUID } from 'node:crypto';
import type { Call } from '../../src/generated/prisma/client';
import type { TestApp } from '../support/test-app';

/** The fields of a recorded call a test cares about; the rest get plausible values. */
export interface SeededCall {
  teamId: string;
  toolId: string;
  toolName: string;
  toolVersion?: string;
  keyId?: string | null;
  actor?: string;
  status?: Call['status'];
  errorCode?: string | null;
  latencyMs?: number | null;
  attempts?: number;
  answeredBy?: string | null;
  /** Answered from the result cache with a result this old (`answered_by: cache`). */
  cacheAgeMs?: number;
  createdAt?: Date;
  /** The tool's own cost (recorded as estimated). */
  toolCostUsd?: number;
  /** The call's token share's price. */
  tokensUsd?: number;
  /** Adds the call's approval row with this status (and an expiry). */
  approval?: {
    status: 'pending' | 'approved' | 'denied' | 'expired';
    expiresAt?: Date;
    /** How long after the request a decided approval was decided (default at once). */
    waitedMs?: number;
  };
}

/**
 * Writes calls (and approvals) straight into the database, at chosen times and outcomes, for
 * aggregates that would otherwise need hours of traffic.
 */
export async function seedCalls(api: TestApp, calls: readonly SeededCall[]): Promise<string[]> {
  const rows = calls.map((call) => {
    const createdAt = call.createdAt ?? new Date();
    const status = call.status ?? 'succeeded';
    const finished = ['succeeded', 'failed', 'cancelled', 'outcome_unknown'].includes(status);
    return {
      id: randomUUID(),
      teamId: call.teamId,
      keyId: call.keyId ?? null,
      actor: call.actor ?? (call.keyId ? `key:${call.keyId}` : 'admin'),
      provider: 'anthropic',
      providerCallId: `toolu_${randomUUID()}`,
      toolId: call.toolId,
      toolName: call.toolName,
      toolVersion: call.toolVersion ?? '1.0.0',
      arguments: {},
      argumentsHash: 'seeded',
      idempotencyKey: randomUUID(),
      status,
      errorCode: call.errorCode ?? (status === 'failed' ? 'tool_error' : null),
      latencyMs: call.latencyMs === undefined ? (finished ? 10 : null) : call.latencyMs,
      attempts: call.attempts ?? (finished ? 1 : 0),
      answeredBy: call.cacheAgeMs === undefined ? (call.answeredBy ?? null) : 'cache',
      cacheAgeMs: call.cacheAgeMs ?? null,
      createdAt,
      startedAt: finished ? createdAt : null,
      finishedAt: finished ? new Date(createdAt.getTime() + (call.latencyMs ?? 10)) : null,
      toolCostUsd: call.toolCostUsd ?? null,
      toolCostSource: call.toolCostUsd === undefined ? null : 'estimate',
      tokensUsd: call.tokensUsd ?? null,
      tokens:
        call.tokensUsd === undefined
          ? undefined
          : { input: 100, output: 10, cache_read: 0, cache_write: 0, reasoning: 0 },
    };
  });
  await api.database.prisma.call.createMany({ data: rows });
  const approvals = calls.flatMap((call, index) => {
    const row = rows[index]!;
    if (call.approval === undefined) return [];
    const decided = call.approval.status === 'approved' || call.approval.status === 'denied';
    return [
      {
        id: randomUUID(),
        callId: row.id,
        teamId: row.teamId,
        toolId: row.toolId,
        toolVersion: row.toolVersion,
        argumentsHash: row.argumentsHash,
        reason: 'destructive',
        status: call.approval.status,
        requestedBy: row.actor,
        decidedBy: decided ? 'user:approver@example.com' : null,
        decidedAt: decided
          ? new Date(row.createdAt.getTime() + (call.approval.waitedMs ?? 0))
          : null,
        createdAt: row.createdAt,
        expiresAt: call.approval.expiresAt ?? new Date(row.createdAt.getTime() + 3_600_000),
      },
    ];
  });
  if (approvals.length > 0) await api.database.prisma.approval.createMany({ data: approvals });
  return rows.map((row) => row.id);
}
