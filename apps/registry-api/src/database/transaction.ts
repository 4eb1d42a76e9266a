import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { ToolException } from '../problem/tool.exception';

// Appends to the audit chain queue on one row lock, so a burst of writes waits its turn:
// give the queue room rather than failing after Prisma's default 2 s / 5 s.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

// Prisma codes that mean "try again": no connection in time, transaction expired, write conflict, unreachable.
const TRANSIENT_CODES = new Set(['P2028', 'P2034', 'P1001', 'P1002', 'P1017']);

/** A busy or unreachable database is a 503 with Retry-After, never a 500. */
export function mapTransientDatabaseError(error: unknown): unknown {
  if (error instanceof Prisma.PrismaClientKnownRequestError && TRANSIENT_CODES.has(error.code)) {
    return new ToolException('unavailable', 'The database is busy; retry shortly.', {
      headers: { 'retry-after': '1' },
      cause: error,
    });
  }
  return error;
}

/** Runs `fn` in one interactive transaction: the change and its audit event commit together or not at all. */
export async function inTransaction<TResult>(
  prisma: PrismaClient,
  fn: (tx: Prisma.TransactionClient) => Promise<TResult>,
): Promise<TResult> {
  try {
    return await prisma.$transaction(fn, TRANSACTION_OPTIONS);
  } catch (error) {
    throw mapTransientDatabaseError(error);
  }
}
