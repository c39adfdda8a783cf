/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ALL_ORGANIZATIONS } from '@service/contracts';
import { isNonzeroEvmAddress } from '@service/evm';
import { eventually } from '@service/testing';
import { Client, eventsOf, failure, startWalletSystem, type WalletSystem } from './wallet-system.js';

let system: WalletSystem;
let owner: Client;
let orgCounter = 0;
const freshOrg = () => `org_${randomUUID().slice(0, 8)}_${(orgCounter += 1)}`;

beforeAll(async () => {
  system = await startWalletSystem();
  owner = await Client.of(system, freshOrg());
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

const JAAA_USDC = 'service-jaaa-usdc-vault';
const create = (client: Client, body: object) => client.post('/v2/wallets', { requestId: randomUUID(), ...body });
const allocations = (group: string, entries: object[]) => ({ strategy: { allocations: { [group]: entries } } });

describe('GET /v2/wallets/yield-sources', () => {
  // business_days became banking_days and minutes elapsed_seconds (issue 14): real clients reject any other basis.
  it('lists the sandbox catalogue with the interface fields', async () => {
    // risk-service's latest reading of the lending market (its `risk.metrics.observed` event): the live figures.
    const recordedAt = new Date().toISOString();
    await system.publish(
      ALL_ORGANIZATIONS,
      'risk.metrics.observed',
      {
        observationId: randomUUID(),
        yieldSourceId: 'service-justlend-usdt-tron-market',
        orgId: null,
        metrics: { apy_bps: 305, tvl_usd: 41_000_000, available_withdrawal_liquidity_usd: 2_000_000 },
        recordedAt,
        expiresAt: null,
      },
      { source: 'risk' },
    );
    const reply = await eventually(
      () => owner.get('/v2/wallets/yield-sources'),
      (answer) => answer.body.data?.some((source: any) => source.currentApy?.asOf === recordedAt),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.nextCursor).toBeNull();
    expect(await owner.sdk.wallets.yieldSources().toArray()).toEqual(reply.body.data);
    const byId = Object.fromEntries(reply.body.data.map((source: any) => [source.id, source]));
    expect(Object.keys(byId)).toEqual(
      expect.arrayContaining([
        'service-jaaa-usdc-vault',
        'service-jaaa-usdt-vault',
        'service-ustb-vault',
        'service-justlend-usdt-tron-market',
      ]),
    );
    expect(byId['service-jaaa-usdt-vault']).toMatchObject({ allocationGroup: 'usdt', depositToken: 'usdt', mode: 'active' });
    expect(byId[JAAA_USDC]).toMatchObject({
      allocationGroup: 'usdc',
      apyBps: expect.any(Number),
      processingPolicies: {
        deposit: { processingTimeBasis: 'banking_days', typicalMinUnits: 1, typicalMaxUnits: 2 },
        redeem: expect.any(Object),
      },
      tvlUsd: expect.any(Number),
      utilizationPct: null,
      description: expect.any(String),
      allocations: [expect.objectContaining({ type: 'rwa' }), expect.objectContaining({ type: 'cash' })],
    });
    expect(byId['service-ustb-vault'].allocations[0]).toEqual({
      label: 'US Treasury bills',
      type: 'treasury',
      valueUsd: expect.any(Number),
      pct: expect.any(Number),
    });
    expect(byId[JAAA_USDC].currentApy).toBeUndefined();
    const market = byId['service-justlend-usdt-tron-market'];
    expect(market).toMatchObject({ chain: 'tron_nile', allocationGroup: 'usdt:tron', apyBps: null, utilizationPct: expect.any(Number) });
    expect(market.processingPolicies.redeem).toEqual({ processingTimeBasis: 'elapsed_seconds', typicalMinUnits: 60, typicalMaxUnits: 600 });
    expect(market.allocations.map((holding: any) => holding.type)).toEqual(['lending', 'cash']);
    expect(Date.parse(market.currentApy.validUntil) - Date.parse(market.currentApy.asOf)).toBe(2 * 3_600_000);
    expect(Date.parse(market.currentApy.validUntil)).toBeGreaterThan(Date.now());
    expect(market).toMatchObject({ currentApy: { apyBps: 305, asOf: recordedAt }, tvlUsd: 41_000_000 });
  });

  it('pages with an opaque cursor and refuses a foreign one', async () => {
    const sources = owner.sdk.wallets.yieldSources({ limit: 3 });
    const first = await sources.page();
    expect(first.data).toHaveLength(3);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await sources.page(first.nextCursor ?? undefined);
    expect(second).toMatchObject({ data: [expect.any(Object)], nextCursor: null });
    const wallets = await failure(owner.sdk.wallets.list().page(first.nextCursor ?? undefined));
    expect(wallets).toEqual({ status: 400, body: { error: expect.any(String), code: 'invalid_cursor' } });
  });
});

describe('POST /v2/wallets', () => {
  it('creates a wallet that becomes idle with real deposit addresses, and announces it', async () => {
    const created = await owner.sdk.wallets.create({
      label: 'Treasury',
      ...allocations('usdc', [
        { yieldSourceId: JAAA_USDC, pct: 60 },
        { yieldSourceId: 'service-ustb-vault', pct: 40 },
      ]),
    });
    expect(created).toMatchObject({ status: 'creating', label: 'Treasury', autoRebalance: false, failureReason: null });
    const wallet = await owner.waitFor(`/v2/wallets/${created.id}`, (body) => body.status === 'idle');
    expect(await owner.sdk.wallets.get(wallet.id)).toEqual(wallet);
    expect(Object.keys(wallet.depositAddresses).sort()).toEqual(['ethereum_sepolia', 'solana_devnet', 'tron_nile']);
    expect(isNonzeroEvmAddress(wallet.depositAddresses.ethereum_sepolia)).toBe(true);
    expect(wallet.depositAddresses.solana_devnet).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(wallet.depositAddresses.tron_nile).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(wallet.strategy).toEqual({
      allocations: {
        usdc: [
          { yieldSourceId: JAAA_USDC, pct: 60 },
          { yieldSourceId: 'service-ustb-vault', pct: 40 },
        ],
      },
    });
    expect(wallet.strategyAllocations).toEqual({
      usdc: [
        { yieldSourceId: JAAA_USDC, targetWeightBps: 6000 },
        { yieldSourceId: 'service-ustb-vault', targetWeightBps: 4000 },
        { yieldSourceId: 'cash', targetWeightBps: 0 },
      ],
    });
    expect(wallet.balance).toEqual({ totalUsd: '0.000000', withdrawableUsd: '0.000000', reservedUsd: '0.000000', earnedUsd: '0.000000' });
    expect(wallet.positions).toEqual([]);
    const events = await eventsOf(system, wallet.id);
    expect(events).toEqual([
      {
        type: 'portfolio_wallet.status_changed',
        payload: {
          event: 'portfolio_wallet.status_changed',
          observedAt: expect.any(String),
          walletId: wallet.id,
          wallet: { id: wallet.id, status: 'idle' },
        },
      },
    ]);
  });

  it('accepts the targetWeightBps form with a cash share, and the TRON group', async () => {
    const reply = await create(owner, {
      strategy: {
        allocations: {
          usdc: [
            { yieldSourceId: JAAA_USDC, targetWeightBps: 7500 },
            { yieldSourceId: 'cash', targetWeightBps: 2500 },
          ],
          'usdt:tron': [{ yieldSourceId: 'service-justlend-usdt-tron-market', pct: 100 }],
        },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.strategyAllocations.usdc).toEqual([
      { yieldSourceId: JAAA_USDC, targetWeightBps: 7500 },
      { yieldSourceId: 'cash', targetWeightBps: 2500 },
    ]);
  });

  it.each([
    ['an unknown source', allocations('usdc', [{ yieldSourceId: 'service-jaaa-vault', pct: 100 }]), 404, 'yield_source_not_found'],
    [
      'a source in the wrong group',
      allocations('usdc', [{ yieldSourceId: 'service-jaaa-usdt-vault', pct: 100 }]),
      400,
      'invalid_position_weight',
    ],
    [
      'TRON USDT under usdt',
      allocations('usdt', [{ yieldSourceId: 'service-justlend-usdt-tron-market', pct: 100 }]),
      400,
      'invalid_position_weight',
    ],
    ['weights not summing to 100', allocations('usdc', [{ yieldSourceId: JAAA_USDC, pct: 90 }]), 400, 'invalid_position_weight'],
    [
      'bps not summing to 10000',
      allocations('usdc', [{ yieldSourceId: JAAA_USDC, targetWeightBps: 9999 }]),
      400,
      'invalid_position_weight',
    ],
    // pct takes steps of 0.1 (issue 14): 99.5 is accepted now, 99.95 is not.
    [
      'a pct finer than 0.1',
      allocations('usdc', [
        { yieldSourceId: JAAA_USDC, pct: 99.95 },
        { yieldSourceId: 'cash', pct: 0.05 },
      ]),
      400,
      'invalid_position_weight',
    ],
    ['an unknown group', allocations('dai', [{ yieldSourceId: JAAA_USDC, pct: 100 }]), 400, 'validation_error'],
    ['no strategy', {}, 400, 'validation_error'],
  ])('refuses %s', async (_, body, status, code) => {
    const reply = await create(owner, body);
    expect(reply).toEqual({ status, body: { error: expect.any(String), code } });
  });

  it('is idempotent on requestId, replays the first answer, and refuses a reused id with another payload', async () => {
    const client = await Client.of(system, freshOrg());
    const requestId = randomUUID();
    const body = { requestId, label: 'A', ...allocations('usdc', [{ yieldSourceId: JAAA_USDC, pct: 100 }]) };
    const [first, second] = await Promise.all([client.post('/v2/wallets', body), client.sdk.wallets.create(body)]);
    expect(first).toEqual({ status: 200, body: expect.objectContaining({ status: 'creating' }) });
    expect(second).toEqual(first.body);
    // Once the worker has provisioned the wallet, a retry of the create still answers what the
    // create answered (a client that lost the first answer sees the same one), not the wallet now.
    await client.waitFor(`/v2/wallets/${first.body.id}`, (wallet) => wallet.status === 'idle');
    expect(await client.sdk.wallets.create(body)).toEqual(first.body);
    const conflict = await failure(client.sdk.wallets.create({ ...body, label: 'B' }));
    expect(conflict).toEqual({ status: 409, body: { error: expect.any(String), code: 'request_id_conflict' } });
    expect(await client.sdk.wallets.list().toArray()).toHaveLength(1);
  });

  it('stops at the per-organization limit', async () => {
    const client = await Client.of(system, freshOrg());
    const strategy = allocations('usdc', [{ yieldSourceId: JAAA_USDC, pct: 100 }]);
    const replies = await Promise.all(Array.from({ length: 43 }, () => create(client, strategy)));
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(40);
    for (const reply of replies.filter((candidate) => candidate.status !== 200)) {
      expect(reply).toEqual({ status: 409, body: { error: expect.any(String), code: 'wallet_limit_reached' } });
    }
  });
});

describe('reading and changing wallets', () => {
  it('lists newest first with cursors, and hides other organizations', async () => {
    const client = await Client.of(system, freshOrg());
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1)
      ids.push((await create(client, allocations('usdc', [{ yieldSourceId: JAAA_USDC, pct: 100 }]))).body.id);
    const first = await client.get('/v2/wallets?limit=2');
    expect(first.body.data.map((wallet: any) => wallet.id)).toEqual([ids[2], ids[1]]);
    const second = await client.get(`/v2/wallets?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    const walked: string[] = [];
    for await (const wallet of client.sdk.wallets.list({ limit: 2 })) walked.push(wallet.id);
    expect(walked).toEqual([ids[2], ids[1], ids[0]]);
    const stranger = await Client.of(system, freshOrg());
    expect(await stranger.sdk.wallets.list().page()).toEqual({ data: [], nextCursor: null });
    expect(await failure(stranger.sdk.wallets.get(ids[0]))).toEqual({
      status: 404,
      body: { error: expect.any(String), code: 'wallet_not_found' },
    });
    expect((await stranger.patch(`/v2/wallets/${ids[0]}`, { label: 'mine' })).body.code).toBe('wallet_not_found');
    expect((await stranger.get(`/v2/wallets/${ids[0]}/deposits`)).body.code).toBe('wallet_not_found');
    expect((await stranger.get(`/v2/wallets/${ids[0]}/yield`)).body.code).toBe('wallet_not_found');
  });

  it('PATCH accepts only label', async () => {
    const wallet = await owner.idleWallet();
    const renamed = await owner.patch(`/v2/wallets/${wallet.id}`, { label: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.label).toBe('Renamed');
    expect(await owner.patch(`/v2/wallets/${wallet.id}`, { label: 'x', enabledChains: ['stellar_testnet'] })).toEqual({
      status: 400,
      body: { error: expect.any(String), code: 'validation_error' },
    });
    expect((await owner.patch(`/v2/wallets/${wallet.id}`, { autoRebalance: true })).status).toBe(400);
    expect((await owner.get('/v2/wallets/not-a-uuid')).body.code).toBe('validation_error');
  });

  it('PATCH strategy validates, returns the record and announces the new strategy once per requestId', async () => {
    const wallet = await owner.idleWallet();
    const requestId = randomUUID();
    const body = { requestId, allocations: { usdc: [{ yieldSourceId: 'service-ustb-vault', pct: 100 }] } };
    const reply = await owner.patch(`/v2/wallets/${wallet.id}/strategy`, body);
    expect(reply.status).toBe(200);
    expect(reply.body.strategyAllocations.usdc).toEqual([
      { yieldSourceId: 'service-ustb-vault', targetWeightBps: 10000 },
      { yieldSourceId: 'cash', targetWeightBps: 0 },
    ]);
    expect((await owner.patch(`/v2/wallets/${wallet.id}/strategy`, body)).status).toBe(200);
    const changed = { requestId, allocations: { usdc: [{ yieldSourceId: JAAA_USDC, pct: 100 }] } };
    expect((await owner.patch(`/v2/wallets/${wallet.id}/strategy`, changed)).body.code).toBe('request_id_conflict');
    const bad = { requestId: randomUUID(), allocations: { usdc: [{ yieldSourceId: JAAA_USDC, pct: 50 }] } };
    expect((await owner.patch(`/v2/wallets/${wallet.id}/strategy`, bad)).body.code).toBe('invalid_position_weight');
    const strategyEvents = (await eventsOf(system, wallet.id)).filter((event) => event.type === 'portfolio_wallet.strategy.status_changed');
    expect(strategyEvents).toEqual([
      {
        type: 'portfolio_wallet.strategy.status_changed',
        payload: {
          event: 'portfolio_wallet.strategy.status_changed',
          observedAt: expect.any(String),
          walletId: wallet.id,
          strategy: { status: 'active', allocations: { usdc: [{ yieldSourceId: 'service-ustb-vault', pct: 100 }] } },
        },
      },
    ]);
  });

  it('has no strategy optimizer', async () => {
    expect((await owner.post('/v2/wallets/strategy/optimize', {})).status).toBe(404);
  });
});

describe('sandbox deposits', () => {
  it('settle after the delay, credit cash and announce each change', async () => {
    const wallet = await owner.idleWallet();
    const created = await owner.post(`/v2/wallets/${wallet.id}/deposits/simulate`, { amountUsd: '125.5' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      amount: '125.500000',
      token: 'usdc',
      chain: 'ethereum_sepolia',
      fromAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      status: 'processing',
      createdAt: expect.any(String),
      completedAt: null,
    });
    const done = await owner.waitFor(`/v2/wallets/${wallet.id}/deposits/${created.body.id}`, (deposit) => deposit.status === 'completed');
    expect(done.completedAt).toEqual(expect.any(String));
    const after = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
    expect(after.positions).toEqual([
      {
        id: 'cash:ethereum_sepolia:usdc',
        kind: 'cash',
        label: 'USDC on Ethereum Sepolia',
        valueUsd: '125.500000',
        pct: 100,
        yieldSourceId: null,
        token: 'usdc',
      },
    ]);
    expect(after.balance).toEqual({
      totalUsd: '125.500000',
      withdrawableUsd: '125.500000',
      reservedUsd: '0.000000',
      earnedUsd: '0.000000',
    });
    expect(await owner.sdk.deposits.list(wallet.id).page()).toEqual({ data: [done], nextCursor: null });
    expect(await owner.sdk.deposits.get(wallet.id, done.id)).toEqual(done);
    const types = (await eventsOf(system, wallet.id)).map((event) => event.type);
    expect(types.filter((type) => type === 'portfolio_wallet.deposit.status_changed')).toHaveLength(2);
    const events = await eventsOf(system, wallet.id);
    expect(events.find((event) => event.type === 'portfolio_wallet.balance.updated')?.payload).toMatchObject({
      walletId: wallet.id,
      balance: { totalUsd: '125.500000', cashUsd: '125.500000', investedUsd: '0.000000' },
    });
    expect(events.find((event) => event.type === 'portfolio_wallet.position.updated')?.payload).toMatchObject({
      walletId: wallet.id,
      position: { id: 'cash:ethereum_sepolia:usdc', kind: 'cash', amountUsd: '125.500000' },
    });
  });

  it('take any deposit chain of the wallet in its own formats', async () => {
    const wallet = await owner.idleWallet();
    const solana = await owner.sdk.deposits.simulate(wallet.id, { amountUsd: '1', chain: 'solana_devnet' });
    expect(solana).toMatchObject({
      chain: 'solana_devnet',
      token: 'usdc',
      fromAddress: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
    });
    const tron = await owner.sdk.deposits.simulate(wallet.id, { amountUsd: '2', chain: 'tron_nile' });
    expect(tron).toMatchObject({ chain: 'tron_nile', token: 'usdt', fromAddress: expect.stringMatching(/^T/) });
  });

  it.each([
    [{ amountUsd: '1.0000001' }, 'precision_overflow'],
    [{ amountUsd: '0' }, 'validation_error'],
    [{ amountUsd: 'ten' }, 'validation_error'],
    [{ amountUsd: '1', chain: 'ethereum' }, 'unsupported_chain'],
    [{ amountUsd: '1', chain: 'tron_nile', token: 'usdc' }, 'unsupported_token'],
  ])('refuses %p with %s', async (body, code) => {
    const wallet = await owner.idleWallet();
    const reply = await owner.post(`/v2/wallets/${wallet.id}/deposits/simulate`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(code);
  });

  it('answers deposit_not_found and wallet_not_found', async () => {
    const wallet = await owner.idleWallet();
    const notFound = (code: string) => ({ status: 404, body: { error: expect.any(String), code } });
    expect(await failure(owner.sdk.deposits.get(wallet.id, randomUUID()))).toEqual(notFound('deposit_not_found'));
    expect(await failure(owner.sdk.deposits.simulate(randomUUID(), { amountUsd: '1' }))).toEqual(notFound('wallet_not_found'));
  });

  it('are allocated per strategy on an autoRebalance wallet', async () => {
    const strategy = {
      usdc: [
        { yieldSourceId: JAAA_USDC, pct: 70 },
        { yieldSourceId: 'service-ustb-vault', pct: 20 },
        { yieldSourceId: 'cash', pct: 10 },
      ],
    };
    const wallet = await owner.idleWallet(strategy, true);
    await owner.deposit(wallet.id, '100');
    const settled = await owner.waitFor(
      `/v2/wallets/${wallet.id}`,
      (body) => body.positions.length === 3 && body.balance.reservedUsd === '0.000000',
    );
    const principal = Object.fromEntries(settled.positions.map((position: any) => [position.id, position.valueUsd]));
    expect(principal['cash:ethereum_sepolia:usdc']).toBe('10.000000');
    expect(Number(principal[JAAA_USDC])).toBeGreaterThanOrEqual(70);
    expect(Number(principal['service-ustb-vault'])).toBeGreaterThanOrEqual(20);
  });
});
