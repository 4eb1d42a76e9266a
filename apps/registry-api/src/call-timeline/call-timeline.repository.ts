import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { Approval, Call } from '../generated/prisma/client';

export type TimelineCallRow = Call & { approval: Approval | null };

/** What a timeline reads from a recorded call and its approval. */
export type TimelineCall = Pick<
  Call,
  | 'createdAt'
  | 'startedAt'
  | 'finishedAt'
  | 'provider'
  | 'providerCallId'
  | 'toolName'
  | 'toolVersion'
  | 'actor'
  | 'conversationId'
  | 'status'
  | 'errorCode'
  | 'latencyMs'
  | 'attempts'
  | 'answeredBy'
  | 'cacheAgeMs'
  | 'runs'
> & {
  approval: Pick<
    Approval,
    | 'id'
    | 'createdAt'
    | 'expiresAt'
    | 'decidedAt'
    | 'status'
    | 'decidedBy'
    | 'decisionReason'
    | 'reason'
    | 'policyReason'
  > | null;
};

/** Reads what the gateway recorded about one call (calls and approvals tables), never writes. */
@Injectable()
export class CallTimelineRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  findCall(id: string, teamId: string | null): Promise<TimelineCallRow | null> {
    return this.database.prisma.call.findFirst({
      where: { id, ...(teamId === null ? {} : { teamId }) },
      include: { approval: true },
    });
  }
}
