/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS } from '@service/contracts';
import { NatsRequester, SubjectClient } from '@service/nats';
import { CASH, Client, EVM, JAAA, startWalletSystem, USTB, type WalletSystem } from './wallet-system.js';

/**
 * A wallet's accounting through the gateway on the built services, with time under the test's
 * control: wallet-service runs with WALLET_CLOCK_CONTROL, and the test stops its clock at each
 * step (`wallet.sandbox.pin-clock`, as the operator CLI sends it), so every figure is known to the
 * micro-dollar. The same life and the same hand-computed figures as the in-process spec
 * (`src/app/accounting/accounting.int.spec.ts`, which says how they were computed): funded,
 * allocated across two sources, partly redeemed, withdrawn, JAAA's rate changing on March 1.
 */
const at = (day: string) => `${day}T00:00:00.000Z`;

let system: WalletSystem;
let operator: NatsConnection;
let clock: SubjectClient;
let owner: Client;
let walletId: string;

const pin = async (day: string | null) =>
  expect(await clock.request(SUBJECTS.wallet.sandboxPinClock, { ctx: operatorCtx(), at: day === null ? null : at(day) })).toEqual({
    pinnedAt: day === null ? null : at(day),
  });
const operatorCtx = () => ({ orgId: 'operator', principalId: 'operator-cli', role: 'owner' as const, requestId: randomUUID() });

const settled = () =>
  owner.waitFor(`/v2/wallets/${walletId}`, (wallet) => wallet.status === 'idle' && wallet.balance.reservedUsd === '0.000000');

async function allocate(moves: [string, string, string][]): Promise<void> {
  const reply = await owner.post(`/v2/wallets/${walletId}/allocate`, {
    requestId: randomUUID(),
    allocations: moves.map(([from, to, amountUsd]) => ({ from, to, amountUsd })),
  });
  expect(reply.status).toBe(200);
  await settled();
}

const summary = async (start: string, end: string) => {
  const reply = await owner.get(`/v2/accounting/yield/period-summary?walletId=${walletId}&start=${at(start)}&end=${at(end)}`);
  expect(reply.status).toBe(200);
  return reply.body;
};

beforeAll(async () => {
  system = await startWalletSystem({
    WALLET_CLOCK_CONTROL: 'true',
    WALLET_DEPOSIT_SETTLEMENT_MS: '0',
    WALLET_REBALANCE_PROCESSING_MS: '0',
    WALLET_PAYOUT_STEP_MS: '0',
    WALLET_YIELD_TIME_SCALE: '1',
    WALLET_WITHDRAWAL_FEE_USD: '0.500000',
    WALLET_ACCRUAL_RATE_CHANGES: JSON.stringify({ [JAAA]: [{ from: at('2026-03-01'), apyBps: 1000 }] }),
  });
  operator = await system.system.nats.connect('admin');
  clock = new SubjectClient(new NatsRequester(operator, 5_000));
  owner = await Client.of(system, `org_clock_${randomUUID().slice(0, 8)}`);

  await pin('2026-01-01');
  walletId = (await owner.idleWallet({ usdc: [{ yieldSourceId: JAAA, pct: 100 }] })).id;
  await owner.deposit(walletId, '10000');
  await pin('2026-01-02');
  await allocate([
    [CASH, JAAA, '6000'],
    [CASH, USTB, '3000'],
  ]);
  await pin('2026-02-01');
  await allocate([[JAAA, CASH, '2000']]);
  await pin('2026-04-01');
  const withdrawal = await owner.post(`/v2/wallets/${walletId}/withdrawals`, {
    requestId: randomUUID(),
    destinationChain: 'ethereum_sepolia',
    token: 'usdc',
    destinationAddress: EVM,
    amountUsd: '3500',
  });
  expect(withdrawal.status).toBe(200);
  expect(
    await owner.waitFor(`/v2/wallets/${walletId}/withdrawals/${withdrawal.body.id}`, (body) => body.status !== 'processing'),
  ).toMatchObject({ status: 'completed' });
  await settled();
  await pin('2026-05-01');
  await owner.deposit(walletId, '250');
  await pin('2026-06-01');
}, 120_000);

afterAll(async () => {
  await operator?.close();
  await system?.stop();
});

describe('a wallet’s accounting at instants the test chose', () => {
  it('answers the hand-computed figures of three periods, the second across a rate change', async () => {
    expect(await summary('2026-01-01', '2026-02-01')).toEqual({
      periodStart: at('2026-01-01'),
      periodEnd: at('2026-02-01'),
      scope: 'wallet',
      portfolioWalletId: walletId,
      costBasisMethod: 'fifo',
      status: 'exact',
      reason: null,
      summary: {
        startingValueUsd: '0.000000',
        endingValueUsd: '10039.205479',
        externalDepositsUsd: '10000.000000',
        externalPayoutsUsd: '0.000000',
        groundCreditsUsd: '0.000000',
        explicitFeesUsd: '0.000000',
        realizedPerformanceUsd: '0.000000',
        unrealizedPerformanceUsd: '39.205479',
        investmentPerformanceUsd: '39.205479',
        reconciliationStatus: 'exact',
      },
      yieldSources: [
        {
          yieldSourceId: JAAA,
          yieldSourceLabel: expect.any(String),
          entryValueUsd: '0.000000',
          exitValueUsd: '6028.849315',
          netPerformanceUsd: '28.849315',
        },
        {
          yieldSourceId: USTB,
          yieldSourceLabel: expect.any(String),
          entryValueUsd: '0.000000',
          exitValueUsd: '3010.356164',
          netPerformanceUsd: '10.356164',
        },
      ],
    });
    expect((await summary('2026-02-01', '2026-04-01')).summary).toMatchObject({
      startingValueUsd: '10039.205479',
      endingValueUsd: '10111.940685',
      realizedPerformanceUsd: '9.570422',
      unrealizedPerformanceUsd: '63.164784',
      investmentPerformanceUsd: '72.735206',
    });
    const third = await summary('2026-04-01', '2026-06-01');
    expect(third.summary).toMatchObject({
      startingValueUsd: '10111.940685',
      endingValueUsd: '6943.350979',
      externalDepositsUsd: '250.000000',
      externalPayoutsUsd: '3499.500000',
      explicitFeesUsd: '0.500000',
      realizedPerformanceUsd: '8.769186',
      unrealizedPerformanceUsd: '72.641108',
      investmentPerformanceUsd: '81.410294',
      reconciliationStatus: 'exact',
    });
    expect(third.yieldSources.map((source: any) => [source.yieldSourceId, source.entryValueUsd, source.exitValueUsd])).toEqual([
      [JAAA, '4081.147090', '3641.246384'],
      [USTB, '3030.793595', '3052.104595'],
    ]);
  });

  it('ends the period ending at the clock at the wallet’s balance, and the same query answers the same tomorrow', async () => {
    const now = await summary('2026-03-15', '2026-06-01');
    expect(now.summary.endingValueUsd).toBe((await owner.get(`/v2/wallets/${walletId}`)).body.balance.totalUsd);
    await pin('2026-06-02');
    expect(await summary('2026-03-15', '2026-06-01')).toEqual(now);
    expect(
      (await owner.get(`/v2/accounting/yield/period-summary?walletId=${walletId}&start=${at('2026-06-01')}&end=${at('2026-06-03')}`)).body,
    ).toEqual({
      error: expect.stringContaining('future'),
      code: 'validation_error',
    });
  });

  it("refuses the clock to the gateway's NATS user: only the operator may send it", async () => {
    const gateway = await system.system.nats.connect('gateway');
    try {
      await expect(
        new SubjectClient(new NatsRequester(gateway, 1_500)).request(SUBJECTS.wallet.sandboxPinClock, { ctx: operatorCtx(), at: null }),
      ).rejects.toBeDefined();
    } finally {
      await gateway.close();
    }
  });
});
