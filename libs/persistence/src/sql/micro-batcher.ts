/** How a batcher runs a batch: one answer per item, in the items' order. */
export type BatchRunner<TItem, TAnswer> = (items: readonly TItem[]) => Promise<TAnswer[]>;

/**
 * Gathers the requests that arrive in one turn of the event loop into one statement. Under load a
 * statement then serves many calls (one round trip, one commit, one syscall instead of one each);
 * a lone request waits only for the current turn to end. A batch that fails is run again one item
 * at a time, so one bad item (text the database refuses, say) fails only its own request.
 */
export class MicroBatcher<TItem, TAnswer> {
  private pending: Array<{
    item: TItem;
    resolve: (answer: TAnswer) => void;
    reject: (error: unknown) => void;
  }> = [];
  private scheduled = false;

  constructor(
    private readonly run: BatchRunner<TItem, TAnswer>,
    private readonly maxBatch = 256,
  ) {}

  add(item: TItem): Promise<TAnswer> {
    return new Promise<TAnswer>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    void this.runBatch(batch);
  }

  private async runBatch(batch: MicroBatcher<TItem, TAnswer>['pending']): Promise<void> {
    try {
      const answers = await this.run(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => {
        const answer = answers[index];
        if (answer === undefined) entry.reject(new Error('the batch gave no answer for an item'));
        else entry.resolve(answer);
      });
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // Someone's item broke the batch: each item alone, so only that one fails.
      await Promise.all(batch.map((entry) => this.runBatch([entry])));
    }
  }
}
