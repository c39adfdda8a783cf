/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CASH, Client, JAAA, micros, startWalletSystem, eventsOf, type WalletSystem } from './wallet-system.js';

/**
 * Writes on one wallet meet at its row lock: whatever the interleaving, every accepted allocation
 * moves its amount exactly once and no request spends money another one holds.
 */
let system: WalletSystem;
let owner: Client;

beforeAll(async () => {
  // Real-time yield: the cash position earns nothing, so its amount must come out to the micro.
  // Rebalances stay in processing for 2 s, so what every accepted one holds can be read meanwhile.
  system = await startWalletSystem({ WALLET_YIELD_TIME_SCALE: '1', WALLET_REBALANCE_PROCESSING_MS: '2000' });
  owner = await Client.of(system, `org_concurrency_${randomUUID().slice(0, 8)}`);
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

const allocate = (walletId: string, amountUsd: string) =>
  owner.post(`/v2/wallets/${walletId}/allocate`, { requestId: randomUUID(), allocations: [{ from: CASH, to: JAAA, amountUsd }] });

async function fundedWallet(amountUsd: string): Promise<any> {
  const wallet = await owner.idleWallet();
  await owner.deposit(wallet.id, amountUsd);
  return wallet;
}

async function positionsOf(walletId: string): Promise<Record<string, { amount: bigint; reserved: bigint; earned: bigint }>> {
  const { rows } = await system.db.query<{ position_id: string; amount: string; reserved: string; earned: string }>(
    `SELECT position_id, amount::text, reserved::text, earned::text FROM "${system.schema}".positions WHERE wallet_id = $1`,
    [walletId],
  );
  return Object.fromEntries(
    rows.map((row) => [row.position_id, { amount: BigInt(row.amount), reserved: BigInt(row.reserved), earned: BigInt(row.earned) }]),
  );
}

const settled = (walletId: string) =>
  owner.waitFor(`/v2/wallets/${walletId}`, (wallet) => wallet.status === 'idle' && wallet.balance.reservedUsd === '0.000000', 20_000);

describe('concurrent allocations on one wallet', () => {
  it('20 concurrent allocations on one wallet leave its ledger exact', async () => {
    const wallet = await fundedWallet('100');
    // 0.25, 0.50, ... 5.00 USD: 52.50 USD in all, every amount different, so a lost or doubled move shows.
    const amounts = Array.from({ length: 20 }, (_, index) => micros('0.25') * BigInt(index + 1));
    const replies = await Promise.all(amounts.map((amount) => allocate(wallet.id, (Number(amount) / 1e6).toFixed(6))));
    expect(replies.map((reply) => reply.status)).toEqual(amounts.map(() => 200));
    expect(new Set(replies.map((reply) => reply.body.rebalanceId)).size).toBe(20);
    const moved = amounts.reduce((sum, amount) => sum + amount, 0n);
    // Before any of them completes, the cash holds every accepted amount: no reservation overwrote another.
    expect((await positionsOf(wallet.id))[CASH]).toEqual({ amount: micros('100'), reserved: moved, earned: 0n });
    await settled(wallet.id);

    const positions = await positionsOf(wallet.id);
    expect(positions[CASH]).toEqual({ amount: micros('100') - moved, reserved: 0n, earned: 0n });
    // What the source holds beyond its own yield is exactly what was moved into it.
    expect(positions[JAAA] && positions[JAAA].amount - positions[JAAA].earned).toBe(moved);
    expect(positions[JAAA]?.reserved).toBe(0n);

    const { rows } = await system.db.query<{ status: string; count: string }>(
      `SELECT status, count(*)::text AS count FROM "${system.schema}".rebalances WHERE wallet_id = $1 GROUP BY status`,
      [wallet.id],
    );
    expect(rows).toEqual([{ status: 'completed', count: '20' }]);
    const events = await eventsOf(system, wallet.id);
    const created = events.filter(
      (event) => event.type === 'portfolio_wallet.rebalance.status_changed' && event.payload['rebalance'].status === 'created',
    );
    expect(created.map((event) => event.payload['rebalance'].id).sort()).toEqual(replies.map((reply) => reply.body.rebalanceId).sort());
  }, 60_000);

  it('accepts exactly as many concurrent allocations as the cash covers and refuses the rest with insufficient_funds', async () => {
    const wallet = await fundedWallet('100');
    const replies = await Promise.all(Array.from({ length: 20 }, () => allocate(wallet.id, '10')));
    const accepted = replies.filter((reply) => reply.status === 200);
    const refused = replies.filter((reply) => reply.status !== 200);
    expect(accepted).toHaveLength(10);
    expect(refused.map((reply) => [reply.status, reply.body.code])).toEqual(Array.from({ length: 10 }, () => [409, 'insufficient_funds']));
    await settled(wallet.id);
    const positions = await positionsOf(wallet.id);
    expect(positions[CASH]).toEqual({ amount: 0n, reserved: 0n, earned: 0n });
    expect(positions[JAAA] && positions[JAAA].amount - positions[JAAA].earned).toBe(micros('100'));
  }, 60_000);
});
