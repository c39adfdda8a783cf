import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { createLogger } from '@service/service-runtime';
import type { Due } from './workflow-steps.js';
import { WorkflowWorker } from './workflow-worker.js';

const due = (id: string, walletId: string): Due => ({ id, orgId: 'org_worker', walletId });
const [a1, a2, b1, c1] = [due('a1', 'W1'), due('a2', 'W1'), due('b1', 'W2'), due('c1', 'W3')];

/** A worker over steps that record what they were given; `held` wallets are always passed over. */
function workerWith(options: { held?: string[]; batchFails?: boolean }) {
  const rounds: string[][] = [];
  const singles: string[] = [];
  const steps = {
    advanceRebalances: async (round: readonly Due[]) => {
      rounds.push(round.map((item) => item.id));
      if (options.batchFails) throw new Error('a step failed');
      return round.filter((item) => options.held?.includes(item.walletId));
    },
    advanceRebalance: async (item: Due) => {
      singles.push(item.id);
    },
  };
  const worker = new WorkflowWorker(
    null as never,
    { config: { WALLET_WORKER_POLL_MS: 50 }, now: () => new Date(Date.now()) } as never,
    steps as never,
    { wake: () => undefined } as never,
    createLogger('wallet', 'silent'),
  );
  const advance = () =>
    (worker as unknown as { advanceRebalances(due: { rebalances: Due[] }): Promise<number> }).advanceRebalances({
      rebalances: [a1, a2, b1, c1],
    });
  return { advance, rounds, singles };
}

describe('WorkflowWorker rebalance rounds', () => {
  it('takes one step per wallet a round, a passed-over wallet first in the next, and waits only when a round locked none', async () => {
    const { advance, rounds, singles } = workerWith({ held: ['W3'] });
    expect(await advance()).toBe(4);
    expect(rounds).toEqual([['a1', 'b1', 'c1'], ['a2', 'c1'], ['c1']]);
    expect(singles).toEqual(['c1']);
  });

  it('takes every step one by one when a round fails', async () => {
    const { advance, rounds, singles } = workerWith({ batchFails: true });
    expect(await advance()).toBe(4);
    expect(rounds).toEqual([['a1', 'b1', 'c1']]);
    expect([...singles].sort()).toEqual(['a1', 'a2', 'b1', 'c1']);
    // A wallet's own steps still in order.
    expect(singles.indexOf('a1')).toBeLessThan(singles.indexOf('a2'));
  });
});

describe('WorkflowWorker look for unlisted provisions', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('adds creating wallets missing from wallet_provisions when it starts and every ten minutes, not at every tick', async () => {
    const inserts: string[] = [];
    const sql = {
      $executeRawUnsafe: async (text: string) => {
        inserts.push(text);
        return 0;
      },
      // The due look: nothing due.
      $queryBatch: async () => [undefined, []],
    };
    const worker = new WorkflowWorker(
      sql as never,
      { config: { WALLET_WORKER_POLL_MS: 50 }, now: () => new Date(Date.now()) } as never,
      {} as never,
      { wake: () => undefined } as never,
      createLogger('wallet', 'silent'),
    );
    const tick = () => (worker as unknown as { tick(): Promise<void> }).tick();
    let now = Date.parse('2026-11-27T12:00:00Z');
    jest.spyOn(Date, 'now').mockImplementation(() => now);

    await tick();
    expect(inserts).toHaveLength(1);
    expect(inserts[0]).toContain('INSERT INTO wallet_provisions');
    now += 9 * 60_000;
    await tick();
    await tick();
    expect(inserts).toHaveLength(1);
    now += 60_000;
    await tick();
    expect(inserts).toHaveLength(2);
  });
});
