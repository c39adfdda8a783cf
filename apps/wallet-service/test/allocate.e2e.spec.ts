/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unpublishedOutboxRows } from '@service/events';
import { CASH, Client, JAAA, failure, micros, startWalletSystem, USTB, eventsOf, type WalletSystem } from './wallet-system.js';

let system: WalletSystem;
let owner: Client;
let org: string;

beforeAll(async () => {
  system = await startWalletSystem();
  org = `org_${randomUUID().slice(0, 8)}`;
  owner = await Client.of(system, org);
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

const allocate = (client: Client, walletId: string, body: object) => client.post(`/v2/wallets/${walletId}/allocate`, body);
const move = (from: string, to: string, amountUsd: string) => ({ from, to, amountUsd });

async function fundedWallet(amountUsd = '100'): Promise<any> {
  const wallet = await owner.idleWallet();
  await owner.deposit(wallet.id, amountUsd);
  return wallet;
}

describe('POST /v2/wallets/{id}/allocate', () => {
  it('creates a workflow that moves the amount, reserving it meanwhile, and announces real changes only', async () => {
    const wallet = await fundedWallet();
    const requestId = randomUUID();
    const reply = await allocate(owner, wallet.id, { requestId, allocations: [move(CASH, JAAA, '40')] });
    expect(reply).toEqual({
      status: 200,
      body: {
        rebalanceId: expect.any(String),
        requestId,
        status: 'created',
        createdAt: expect.any(String),
        allocations: [move(CASH, JAAA, '40.000000')],
      },
    });
    const during = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
    expect(during.balance.reservedUsd).toBe('40.000000');
    const done = await owner.waitFor(
      `/v2/wallets/${wallet.id}`,
      (body) => body.status === 'idle' && body.balance.reservedUsd === '0.000000',
    );
    const positions = Object.fromEntries(done.positions.map((position: any) => [position.id, position]));
    expect(positions[CASH].valueUsd).toBe('60.000000');
    expect(micros(positions[JAAA].valueUsd)).toBeGreaterThanOrEqual(40_000_000n);
    expect(positions[JAAA]).toMatchObject({ kind: 'yield_source', yieldSourceId: JAAA, token: 'usdc' });
    const events = await eventsOf(system, wallet.id);
    const rebalance = events.filter((event) => event.type === 'portfolio_wallet.rebalance.status_changed');
    expect(rebalance.map((event) => event.payload.rebalance.status)).toEqual(['created', 'processing', 'completed']);
    for (const event of rebalance) {
      expect(event.payload).toMatchObject({
        walletId: wallet.id,
        rebalance: { id: reply.body.rebalanceId, requestId, allocations: [move(CASH, JAAA, '40.000000')] },
      });
    }
    const statuses = events.filter((event) => event.type === 'portfolio_wallet.status_changed').map((event) => event.payload.wallet.status);
    expect(statuses).toEqual(['idle', 'rebalance_active', 'idle']);
  });

  it('replays the same response for the same requestId and refuses another body', async () => {
    const wallet = await fundedWallet();
    const body = { requestId: randomUUID(), allocations: [move(CASH, JAAA, '10')] };
    const first = await allocate(owner, wallet.id, body);
    await owner.waitFor(`/v2/wallets/${wallet.id}`, (w) => w.balance.reservedUsd === '0.000000');
    const replay = await owner.sdk.wallets.allocate(wallet.id, body);
    expect({ status: 200, body: replay }).toEqual(first);
    const conflict = await failure(owner.sdk.wallets.allocate(wallet.id, { ...body, allocations: [move(CASH, JAAA, '11')] }));
    expect(conflict).toEqual({ status: 409, body: { error: expect.any(String), code: 'request_id_conflict' } });
  });

  it('makes exactly one workflow from 50 concurrent duplicates', async () => {
    const wallet = await fundedWallet();
    const body = { requestId: randomUUID(), allocations: [move(CASH, USTB, '5')] };
    const replies = await Promise.all(Array.from({ length: 50 }, () => allocate(owner, wallet.id, body)));
    expect(new Set(replies.map((reply) => reply.status))).toEqual(new Set([200]));
    expect(new Set(replies.map((reply) => reply.body.rebalanceId)).size).toBe(1);
    const rows = await system.db.query(`SELECT count(*)::int AS n FROM "${system.schema}".rebalances WHERE wallet_id = $1`, [wallet.id]);
    expect(rows.rows[0].n).toBe(1);
    const done = await owner.waitFor(`/v2/wallets/${wallet.id}`, (w) => w.status === 'idle' && w.balance.reservedUsd === '0.000000');
    expect(done.positions.find((position: any) => position.id === CASH).valueUsd).toBe('95.000000');
  });

  it.each([
    ['cash to cash', [move(CASH, 'cash:ethereum_sepolia:usdt', '1')], 400, 'validation_error'],
    ['a position to itself', [move(JAAA, JAAA, '1')], 400, 'validation_error'],
    ['more than six decimals', [move(CASH, JAAA, '1.0000001')], 400, 'precision_overflow'],
    ['a zero amount', [move(CASH, JAAA, '0')], 400, 'validation_error'],
    ['an empty list', [], 400, 'validation_error'],
    ['a malformed cash id', [move('cash:ethereum_sepolia', JAAA, '1')], 400, 'validation_error'],
    ['an unknown chain', [move('cash:ethereum:usdc', JAAA, '1')], 400, 'unsupported_chain'],
    ['crossing groups', [move(CASH, 'service-jaaa-usdt-vault', '1')], 400, 'validation_error'],
    ['an unknown source', [move(CASH, 'service-jaaa-vault', '1')], 404, 'yield_source_not_found'],
    ['more than the source holds', [move(CASH, JAAA, '100.000001')], 409, 'insufficient_funds'],
    ['more than an empty source holds', [move(USTB, JAAA, '1')], 409, 'insufficient_funds'],
    ['two moves overdrawing one source together', [move(CASH, JAAA, '60'), move(CASH, USTB, '50')], 409, 'insufficient_funds'],
  ])('refuses %s', async (_, instructions, status, code) => {
    const wallet = await fundedWallet();
    const body = { requestId: randomUUID(), allocations: instructions };
    // insufficient_funds carries the wallet's balance (issue 14).
    const balance =
      code === 'insufficient_funds' ? { balance: { totalUsd: '100.000000', withdrawableUsd: '100.000000', reservedUsd: '0.000000' } } : {};
    expect(await failure(owner.sdk.wallets.allocate(wallet.id, body))).toEqual({
      status,
      body: { error: expect.any(String), code, ...balance },
    });
    expect(await failure(owner.sdk.wallets.previewAllocation(wallet.id, { allocations: instructions }))).toMatchObject({
      status,
      body: { code },
    });
  });

  it('is for owners and admins only', async () => {
    const wallet = await fundedWallet();
    const body = { requestId: randomUUID(), allocations: [move(CASH, JAAA, '1')] };
    const member = await Client.of(system, org, 'member');
    expect(await failure(member.sdk.wallets.allocate(wallet.id, body))).toEqual({
      status: 403,
      body: { error: expect.any(String), code: 'forbidden' },
    });
    const admin = await Client.of(system, org, 'admin');
    expect((await allocate(admin, wallet.id, body)).status).toBe(200);
  });

  it('answers wallet_not_found for an unknown or foreign wallet', async () => {
    const wallet = await fundedWallet();
    const body = { requestId: randomUUID(), allocations: [move(CASH, JAAA, '1')] };
    expect((await allocate(owner, randomUUID(), body)).body.code).toBe('wallet_not_found');
    const stranger = await Client.of(system, `org_${randomUUID().slice(0, 8)}`);
    expect(await allocate(stranger, wallet.id, body)).toEqual({
      status: 404,
      body: { error: expect.any(String), code: 'wallet_not_found' },
    });
  });

  it('refuses an autoRebalance wallet and points to PATCH strategy', async () => {
    const wallet = await owner.idleWallet({ usdc: [{ yieldSourceId: JAAA, pct: 100 }] }, true);
    const reply = await allocate(owner, wallet.id, { requestId: randomUUID(), allocations: [move(CASH, JAAA, '1')] });
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe('operation_not_supported');
    expect(reply.body.error).toContain(`PATCH /v2/wallets/${wallet.id}/strategy`);
  });
});

describe('POST /v2/wallets/{id}/allocate-preview', () => {
  it('shows the positions before and after and changes nothing', async () => {
    const wallet = await fundedWallet();
    const reply = await owner.post(`/v2/wallets/${wallet.id}/allocate-preview`, { allocations: [move(CASH, JAAA, '25.5')] });
    expect(reply.status).toBe(200);
    expect(await owner.sdk.wallets.previewAllocation(wallet.id, { allocations: [move(CASH, JAAA, '25.5')] })).toEqual(reply.body);
    expect(reply.body.allocations).toEqual([move(CASH, JAAA, '25.500000')]);
    expect(reply.body.before).toEqual([expect.objectContaining({ id: CASH, valueUsd: '100.000000', pct: 100 })]);
    expect(reply.body.after).toEqual([
      expect.objectContaining({ id: CASH, valueUsd: '74.500000', pct: 74 }),
      expect.objectContaining({ id: JAAA, valueUsd: '25.500000', pct: 25 }),
    ]);
    const after = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
    expect(after.positions).toHaveLength(1);
    expect(after.balance.reservedUsd).toBe('0.000000');
    expect((await eventsOf(system, wallet.id)).some((event) => event.type === 'portfolio_wallet.rebalance.status_changed')).toBe(false);
  });
});

describe('money and yield', () => {
  it('conserves money to the micro-dollar across random deposits and allocations while yield accrues', async () => {
    const wallet = await owner.idleWallet();
    let deposited = 0n;
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const dollars = (max: number) => (Math.floor(random() * max * 1e6) / 1e6 + 0.000001).toFixed(6);
    for (let step = 0; step < 8; step += 1) {
      if (step % 2 === 0) {
        const amount = dollars(500);
        await owner.deposit(wallet.id, amount);
        deposited += micros(amount);
        continue;
      }
      const current = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
      const positions = current.positions.filter((position: any) => micros(position.valueUsd) > 1n);
      const from = positions[Math.floor(random() * positions.length)];
      const to = from.id === CASH ? (random() < 0.5 ? JAAA : USTB) : CASH;
      const amount = micros(from.valueUsd) / 3n;
      await owner.allocateAndSettle(wallet.id, [
        { from: from.id, to, amountUsd: `${amount / 1_000_000n}.${String(amount % 1_000_000n).padStart(6, '0')}` },
      ]);
      const view = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
      const sum = view.positions.reduce((total: bigint, position: any) => total + micros(position.valueUsd), 0n);
      expect(sum).toBe(micros(view.balance.totalUsd));
      expect(micros(view.balance.totalUsd)).toBe(deposited + micros(view.balance.earnedUsd));
    }
    const final = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
    expect(micros(final.balance.earnedUsd)).toBeGreaterThan(0n);
  });

  it('reports earned and annualized yield per deployed source', async () => {
    const wallet = await fundedWallet('1000');
    await owner.allocateAndSettle(wallet.id, [move(CASH, JAAA, '600'), move(CASH, USTB, '400')]);
    // Yield accrues by the millisecond: about 0.6 s of it makes the first micro-dollar here.
    await owner.waitFor(`/v2/wallets/${wallet.id}/yield`, (body) => micros(body.earnedUsd) > 0n);
    const reply = { body: await owner.sdk.wallets.yield(wallet.id) };
    expect(micros(reply.body.earnedUsd)).toBeGreaterThan(0n);
    expect(reply.body.positions).toEqual([
      {
        yieldSourceId: JAAA,
        name: expect.any(String),
        apyBps: 585,
        pct: expect.any(Number),
        deployedValueUsd: expect.stringMatching(/^60\d\.\d{6}$/),
      },
      {
        yieldSourceId: USTB,
        name: expect.any(String),
        apyBps: 420,
        pct: expect.any(Number),
        deployedValueUsd: expect.stringMatching(/^40\d\.\d{6}$/),
      },
    ]);
    expect(micros(reply.body.annualizedUsd)).toBeGreaterThanOrEqual(51_900_000n);
  });

  it('writes every event with a top-level walletId and six-decimal amounts, and publishes them', async () => {
    const wallet = await fundedWallet('10');
    await owner.allocateAndSettle(wallet.id, [move(CASH, JAAA, '3')]);
    const events = await eventsOf(system, wallet.id);
    expect(events.length).toBeGreaterThan(5);
    for (const { payload } of events) {
      expect(payload.walletId).toBe(wallet.id);
      const amounts = JSON.stringify(payload).match(/"(amount|amountUsd|totalUsd|cashUsd|investedUsd)":"[^"]*"/g) ?? [];
      for (const amount of amounts) expect(amount).toMatch(/:"\d+\.\d{6}"$/);
    }
    const deadline = Date.now() + 5_000;
    for (;;) {
      const pending = await system.db.query(`SELECT count(*)::int AS n FROM ${unpublishedOutboxRows(system.schema)}`);
      if (pending.rows[0].n === 0) break;
      if (Date.now() > deadline) throw new Error('outbox events were not published');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});
