import { describe, expect, it } from 'vitest';
import { MicroBatcher } from './micro-batcher';

describe('MicroBatcher', () => {
  it('runs what arrives in one turn of the event loop as one batch, answers in order', async () => {
    const batches: number[][] = [];
    const batcher = new MicroBatcher<number, number>((items) => {
      batches.push([...items]);
      return Promise.resolve(items.map((item) => item * 10));
    });
    await expect(Promise.all([1, 2, 3].map((item) => batcher.add(item)))).resolves.toEqual([
      10, 20, 30,
    ]);
    await expect(batcher.add(4)).resolves.toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('starts a batch at once when it is full', async () => {
    const sizes: number[] = [];
    const batcher = new MicroBatcher<number, number>((items) => {
      sizes.push(items.length);
      return Promise.resolve([...items]);
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((item) => batcher.add(item)));
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('runs a failed batch again item by item, so only the bad item fails', async () => {
    const batcher = new MicroBatcher<string, string>((items) =>
      items.includes('bad')
        ? Promise.reject(new Error(`refused ${items.join(',')}`))
        : Promise.resolve(items.map((item) => item.toUpperCase())),
    );
    const answers = await Promise.allSettled(['a', 'bad', 'c'].map((item) => batcher.add(item)));
    expect(answers).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('refused bad') },
      { status: 'fulfilled', value: 'C' },
    ]);
  });
});
