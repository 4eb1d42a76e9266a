import { periodWindow, type SpendSubject } from './budget';

/** The spend counters of teams and keys per period, in micro-dollars. */
export interface SpendCounters {
  /**
   * Adds `micros` to each subject's counter of the period `at` falls in; returns each counter's new
   * total, in the order of `subjects`.
   */
  add(input: { subjects: readonly SpendSubject[]; micros: number; at: number }): Promise<number[]>;
  /** Each subject's spend in the period `at` falls in, in the order of `subjects` (0 when none). */
  read(input: { subjects: readonly SpendSubject[]; at: number }): Promise<number[]>;
}

/** A counter's name within its namespace: whose spend, and in which period. */
export function spendCounterKey(subject: SpendSubject, at: number): string {
  return `${subject.scope}:${subject.subjectId}:${subject.period}:${periodWindow(subject.period, at).id}`;
}

/**
 * Spend counters in this process's memory, for the embedded default (one process runs every
 * call). A counter is dropped once its period is over.
 */
export class InMemorySpendCounters implements SpendCounters {
  private readonly counters = new Map<string, { micros: number; expiresAt: number }>();

  add(input: { subjects: readonly SpendSubject[]; micros: number; at: number }): Promise<number[]> {
    this.prune(input.at);
    return Promise.resolve(
      input.subjects.map((subject) => {
        const key = spendCounterKey(subject, input.at);
        const counter = this.counters.get(key) ?? {
          micros: 0,
          expiresAt: periodWindow(subject.period, input.at).resetsAt.getTime(),
        };
        counter.micros += input.micros;
        this.counters.set(key, counter);
        return counter.micros;
      }),
    );
  }

  read(input: { subjects: readonly SpendSubject[]; at: number }): Promise<number[]> {
    return Promise.resolve(
      input.subjects.map(
        (subject) => this.counters.get(spendCounterKey(subject, input.at))?.micros ?? 0,
      ),
    );
  }

  private prune(at: number): void {
    for (const [key, counter] of this.counters) {
      if (counter.expiresAt <= at) this.counters.delete(key);
    }
  }
}
