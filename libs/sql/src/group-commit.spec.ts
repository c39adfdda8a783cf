import { describe, expect, it } from '@jest/globals';
import { GroupCommit } from './group-commit.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A queue whose writes take `writeMs` and are recorded with when they started. */
function recorded(options: { batchSize: number; concurrency: number; lingerMs: number; writeMs: number; maxWaiting?: number }) {
  const writes: { batch: number[]; at: number }[] = [];
  let running = 0;
  let mostRunning = 0;
  const started = performance.now();
  const queue = new GroupCommit<number>({
    ...options,
    write: async (batch) => {
      writes.push({ batch, at: performance.now() - started });
      running += 1;
      mostRunning = Math.max(mostRunning, running);
      await sleep(options.writeMs);
      running -= 1;
    },
    onError: () => undefined,
  });
  return { queue, writes, mostRunning: () => mostRunning };
}

describe('GroupCommit', () => {
  it('writes a full batch at once and waits up to the linger for a partial one', async () => {
    const { queue, writes } = recorded({ batchSize: 3, concurrency: 2, lingerMs: 200, writeMs: 5 });
    for (const item of [1, 2, 3, 4]) await queue.add(item);
    // The first three made a batch: written at once; the fourth waits for others.
    expect(writes.map((write) => write.batch)).toEqual([[1, 2, 3]]);
    expect(writes[0]?.at).toBeLessThan(200);
    await sleep(20);
    await queue.add(5);
    await queue.drained();
    // The fourth's linger counts from its own arrival; the fifth joined it.
    expect(writes.map((write) => write.batch)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(writes[1]?.at).toBeGreaterThanOrEqual(195);
  });

  it('with no linger, writes each item as soon as a writer is free (what `*_EVENT_LINGER_MS=0` configures)', async () => {
    const { queue, writes } = recorded({ batchSize: 3, concurrency: 1, lingerMs: 0, writeMs: 30 });
    await queue.add(1);
    // Written in the same turn, alone: no timer to wait for.
    expect(writes.map((write) => write.batch)).toEqual([[1]]);
    await queue.add(2);
    await queue.add(3);
    await queue.drained();
    // The two that arrived while the only writer was busy went together once it was free.
    expect(writes.map((write) => write.batch)).toEqual([[1], [2, 3]]);
  });

  it('puts what arrives while every writer is busy into the next write, with no more writes at once than allowed', async () => {
    const { queue, writes, mostRunning } = recorded({ batchSize: 100, concurrency: 1, lingerMs: 0, writeMs: 40 });
    await queue.add(1);
    for (const item of [2, 3, 4]) await queue.add(item);
    await queue.drained();
    expect(writes.map((write) => write.batch)).toEqual([[1], [2, 3, 4]]);
    expect(mostRunning()).toBe(1);
  });

  it('holds the caller back while as many items as allowed wait and every writer is busy', async () => {
    const { queue } = recorded({ batchSize: 2, concurrency: 1, lingerMs: 0, writeMs: 50, maxWaiting: 2 });
    await queue.add(1);
    await queue.add(2);
    // 1 is being written, 2 waits; the third fills the queue up to maxWaiting: its add resolves once a write ends.
    const before = performance.now();
    await queue.add(3);
    expect(performance.now() - before).toBeGreaterThanOrEqual(40);
    await queue.drained();
    expect(queue.pending).toBe(0);
  });
});
