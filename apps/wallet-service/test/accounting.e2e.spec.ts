/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CASH, Client, EVM, JAAA, micros, startWalletSystem, USTB, type WalletSystem } from './wallet-system.js';

/**
 * The accounting routes through the gateway on the built services (sandbox yield at the e2e time
 * scale, so values move every millisecond): identities, composition, the organization as the sum
 * of its wallets, and the refusals. The figures computed by hand, at instants the test pins, are
 * in `src/app/accounting/accounting.int.spec.ts`.
 */
let system: WalletSystem;
let owner: Client;
let org: string;
let walletId: string;
let started: string;
const wallets: string[] = [];

const FIGURES = [
  'startingValueUsd',
  'endingValueUsd',
  'externalDepositsUsd',
  'externalPayoutsUsd',
  'groundCreditsUsd',
  'explicitFeesUsd',
  'realizedPerformanceUsd',
  'unrealizedPerformanceUsd',
  'investmentPerformanceUsd',
] as const;

/** Signed six-decimal USD as micro-dollars. */
const signed = (usd: string): bigint => (usd.startsWith('-') ? -micros(usd.slice(1)) : micros(usd));
const usd = (value: bigint): string => {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
};

const summary = (query: string) => owner.get(`/v2/accounting/yield/period-summary?${query}`);

function identitiesHold(body: any): void {
  const s = body.summary;
  expect(signed(s.endingValueUsd)).toBe(
    signed(s.startingValueUsd) +
      signed(s.externalDepositsUsd) -
      signed(s.externalPayoutsUsd) +
      signed(s.groundCreditsUsd) -
      signed(s.explicitFeesUsd) +
      signed(s.investmentPerformanceUsd),
  );
  expect(signed(s.investmentPerformanceUsd)).toBe(signed(s.realizedPerformanceUsd) + signed(s.unrealizedPerformanceUsd));
  for (const source of body.yieldSources) expect(source).toEqual(expect.objectContaining({ yieldSourceId: expect.any(String) }));
}

beforeAll(async () => {
  system = await startWalletSystem();
  org = `org_${randomUUID().slice(0, 8)}`;
  owner = await Client.of(system, org);
  started = new Date().toISOString();
  // Funded, allocated across two sources, partly redeemed, withdrawn.
  const wallet = await owner.idleWallet();
  walletId = wallet.id;
  await owner.deposit(walletId, '1000');
  await owner.allocateAndSettle(walletId, [
    { from: CASH, to: JAAA, amountUsd: '600' },
    { from: CASH, to: USTB, amountUsd: '300' },
  ]);
  await owner.allocateAndSettle(walletId, [{ from: JAAA, to: CASH, amountUsd: '200' }]);
  const withdrawal = await owner.post(`/v2/wallets/${walletId}/withdrawals`, {
    requestId: randomUUID(),
    destinationChain: 'ethereum_sepolia',
    token: 'usdc',
    destinationAddress: EVM,
    amountUsd: '350',
  });
  expect(withdrawal.status).toBe(200);
  await owner.waitFor(`/v2/wallets/${walletId}/withdrawals/${withdrawal.body.id}`, (body) => body.status === 'completed', 15_000);
  wallets.push(walletId);
  for (const amount of ['20', '30']) {
    const other = await owner.idleWallet();
    await owner.deposit(other.id, amount);
    await owner.allocateAndSettle(other.id, [{ from: CASH, to: USTB, amountUsd: '10' }]);
    wallets.push(other.id);
  }
}, 120_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

describe('GET /v2/accounting/yield/period-summary', () => {
  it("answers a wallet's period in the real API's shape, exact, ending at its balance", async () => {
    const before = (await owner.get(`/v2/wallets/${walletId}`)).body.balance.totalUsd as string;
    const end = new Date().toISOString();
    const reply = await summary(`walletId=${walletId}&start=${started}&end=${end}`);
    const after = (await owner.get(`/v2/wallets/${walletId}`)).body.balance.totalUsd as string;
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      periodStart: started,
      periodEnd: end,
      scope: 'wallet',
      portfolioWalletId: walletId,
      costBasisMethod: 'fifo',
      status: 'exact',
      reason: null,
      summary: {
        startingValueUsd: '0.000000',
        endingValueUsd: expect.stringMatching(/^\d+\.\d{6}$/),
        externalDepositsUsd: '1000.000000',
        externalPayoutsUsd: '349.500000',
        groundCreditsUsd: '0.000000',
        explicitFeesUsd: '0.500000',
        realizedPerformanceUsd: expect.stringMatching(/^\d+\.\d{6}$/),
        unrealizedPerformanceUsd: expect.stringMatching(/^-?\d+\.\d{6}$/),
        investmentPerformanceUsd: expect.stringMatching(/^\d+\.\d{6}$/),
        reconciliationStatus: 'exact',
      },
      yieldSources: [
        expect.objectContaining({ yieldSourceId: JAAA, entryValueUsd: '0.000000' }),
        expect.objectContaining({ yieldSourceId: USTB, entryValueUsd: '0.000000' }),
      ],
    });
    identitiesHold(reply.body);
    // The balance only grows without flows: the period's end lies between the two reads.
    expect(micros(reply.body.summary.endingValueUsd)).toBeGreaterThanOrEqual(micros(before));
    expect(micros(reply.body.summary.endingValueUsd)).toBeLessThanOrEqual(micros(after));
    expect(micros(reply.body.summary.realizedPerformanceUsd)).toBeGreaterThan(0n);
  });

  it('composes over random splits', async () => {
    const from = Date.parse(started) - 1_000;
    const to = Date.now();
    for (let round = 0; round < 8; round += 1) {
      const [a, m, b] = [0, 1, 2].map(() => new Date(from + Math.floor(Math.random() * (to - from))).toISOString()).sort();
      if (!(a! < m! && m! < b!)) continue;
      const [whole, left, right] = await Promise.all([
        summary(`walletId=${walletId}&start=${a}&end=${b}`),
        summary(`walletId=${walletId}&start=${a}&end=${m}`),
        summary(`walletId=${walletId}&start=${m}&end=${b}`),
      ]);
      identitiesHold(whole.body);
      expect(whole.body.summary.startingValueUsd).toBe(left.body.summary.startingValueUsd);
      expect(left.body.summary.endingValueUsd).toBe(right.body.summary.startingValueUsd);
      expect(whole.body.summary.endingValueUsd).toBe(right.body.summary.endingValueUsd);
      for (const field of FIGURES.slice(2)) {
        expect(whole.body.summary[field]).toBe(usd(signed(left.body.summary[field]) + signed(right.body.summary[field])));
      }
    }
  });

  it('answers the organization as the sum of its three wallets', async () => {
    const end = new Date().toISOString();
    const whole = await summary(`scope=organization&start=${started}&end=${end}`);
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ scope: 'organization', portfolioWalletId: null, status: 'exact' });
    identitiesHold(whole.body);
    const parts = await Promise.all(wallets.map((id) => summary(`walletId=${id}&start=${started}&end=${end}`)));
    for (const field of FIGURES) {
      expect(whole.body.summary[field]).toBe(usd(parts.reduce((sum, part) => sum + signed(part.body.summary[field]), 0n)));
    }
  });

  it('refuses bad scopes and dates (400) and the wallets of other organizations (404)', async () => {
    const end = new Date().toISOString();
    const period = `start=${started}&end=${end}`;
    for (const query of [
      period,
      `walletId=${walletId}&scope=organization&${period}`,
      `scope=wallet&${period}`,
      `walletId=not-a-uuid&${period}`,
      `walletId=${walletId}&start=${end}&end=${started}`,
      `walletId=${walletId}&start=${started}&end=${started}`,
      `walletId=${walletId}&start=2026-01-01&end=${end}`,
      `walletId=${walletId}&start=${started}&end=2999-01-01T00:00:00Z`,
      `walletId=${walletId}&${period}&costBasisMethod=lifo`,
      `walletId=${walletId}&end=${end}`,
    ]) {
      const reply = await summary(query);
      expect({ query, status: reply.status, code: reply.body.code }).toEqual({ query, status: 400, code: 'validation_error' });
    }
    const stranger = await Client.of(system, `org_${randomUUID().slice(0, 8)}`);
    const theirs = await stranger.get(`/v2/accounting/yield/period-summary?walletId=${walletId}&${period}`);
    expect(theirs).toMatchObject({ status: 404, body: { code: 'wallet_not_found' } });
    expect(await stranger.get(`/v2/wallets/${walletId}/activity`)).toMatchObject({ status: 404, body: { code: 'wallet_not_found' } });
    expect(await stranger.get(`/v2/accounting/activity?walletId=${walletId}&startAt=${started}&endAt=${end}`)).toMatchObject({
      status: 404,
      body: { code: 'wallet_not_found' },
    });
  });
});

describe('GET /v2/accounting/activity and GET /v2/wallets/{id}/activity', () => {
  it("pages through the ledger's events and the wallet's deposits and withdrawals", async () => {
    const end = new Date().toISOString();
    const all = await owner.get(`/v2/accounting/activity?walletId=${walletId}&startAt=${started}&endAt=${end}&limit=100`);
    expect(all.status).toBe(200);
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.data[0]).toEqual({
      id: expect.any(String),
      type: expect.any(String),
      amountUsd: expect.stringMatching(/^\d+\.\d{6}$/),
      timestamp: expect.any(String),
      detail: expect.any(Object),
      walletId,
      walletLabel: null,
      accountingEventId: expect.any(String),
      eventType: expect.any(String),
      accountId: expect.any(String),
      accountKind: expect.stringMatching(/^(cash|yield_source)$/),
      chain: expect.any(String),
      token: expect.any(String),
      yieldSourceId: all.body.data[0].yieldSourceId,
      nativeUnits: expect.stringMatching(/^\d+$/),
      settlementValuedAt: expect.any(String),
      createdAt: expect.any(String),
      txHash: all.body.data[0].txHash,
    });
    const withdrawn = await owner.get(`/v2/accounting/activity?walletId=${walletId}&startAt=${started}&endAt=${end}&type=withdrawal`);
    expect(withdrawn.body.data.map((item: any) => item.amountUsd).reduce((sum: bigint, amount: string) => sum + micros(amount), 0n)).toBe(
      350_000_000n,
    );
    const page = await owner.get(`/v2/accounting/activity?scope=organization&startAt=${started}&endAt=${end}&limit=2`);
    expect(page.body.data).toHaveLength(2);
    const next = await owner.get(
      `/v2/accounting/activity?scope=organization&startAt=${started}&endAt=${end}&limit=2&cursor=${page.body.nextCursor}`,
    );
    expect(next.body.data[0].id).not.toBe(page.body.data[1].id);
    const activity = await owner.get(`/v2/wallets/${walletId}/activity`);
    expect(activity.status).toBe(200);
    expect(activity.body.data.map((item: any) => [item.type, item.amountUsd])).toEqual(
      expect.arrayContaining([['deposit', '1000.000000']]),
    );
    expect(activity.body.data.every((item: any) => ['deposit', 'withdrawal'].includes(item.type))).toBe(true);
    expect((await owner.get(`/v2/wallets/${walletId}/activity?type=refund`)).status).toBe(400);
    expect((await owner.get(`/v2/accounting/activity?walletId=${walletId}&startAt=${started}`)).status).toBe(400);
  });
});
