import { describe, expect, it } from '@jest/globals';
import { ConcurrencyLimit } from './concurrency-limit.js';

/** A task that ends when the test says so. */
function held() {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { task: () => done, release };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('runs at most `limit` tasks at once and starts waiting ones in arrival order', async () => {
    const limit = new ConcurrencyLimit(2, 10);
    const tasks = [held(), held(), held(), held()];
    const started: number[] = [];
    const runs = tasks.map((entry, index) => limit.run(() => (started.push(index), entry.task())));
    await turn();
    expect(started).toEqual([0, 1]);
    tasks[1]?.release();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]?.release();
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    tasks.forEach((entry) => entry.release());
    await Promise.all(runs);
  });

  it('refuses a task past the waiting room with a retryable 503, and frees its slot when a task fails', async () => {
    const limit = new ConcurrencyLimit(1, 1);
    const first = held();
    const running = limit.run(first.task);
    const waiting = limit.run(() => Promise.reject(new Error('failed')));
    await expect(limit.run(() => Promise.resolve('late'))).rejects.toMatchObject({
      code: 'service_temporarily_unavailable',
      status: 503,
      retryable: true,
    });
    first.release();
    await running;
    await expect(waiting).rejects.toThrow('failed');
    await expect(limit.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
