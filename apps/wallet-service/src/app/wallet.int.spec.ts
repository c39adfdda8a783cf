import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DepositDto, RequestContext, Role, WalletDto, WithdrawalDto } from '@service/contracts';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { eventually } from '@service/testing';
import { walletConfigSpec } from '../config.js';
import { AppModule } from './app.module.js';
import { DepositsService } from './deposits/deposits.service.js';
import { RebalancesService } from './rebalances/rebalances.service.js';
import { WalletsService } from './wallets/wallets.service.js';
import { WithdrawalsService } from './withdrawals/withdrawals.service.js';

/**
 * WalletsService, DepositsService, WithdrawalsService and RebalancesService in process, on their
 * own migrated schema, NATS server and event stream, with the workflow worker running on the
 * e2e suites' short delays: the main use cases of `wallets.e2e.spec.ts`, `withdrawals.e2e.spec.ts`
 * and `allocate.e2e.spec.ts` without a gateway, HTTP or a build. Yield accrues in real time (a
 * few micro-dollars a day here), so the amounts are exact.
 */
let service: InProcessService;
let wallets: WalletsService;
let deposits: DepositsService;
let withdrawals: WithdrawalsService;
let rebalances: RebalancesService;

beforeAll(async () => {
  service = await startServiceInProcess({
    name: 'wallet',
    module: AppModule.forRoot,
    spec: walletConfigSpec,
    env: {
      WALLET_DEPOSIT_SETTLEMENT_MS: '100',
      WALLET_REBALANCE_PROCESSING_MS: '100',
      WALLET_WORKER_POLL_MS: '25',
      WALLET_PAYOUT_STEP_MS: '40',
      WALLET_MAX_PER_ORG: '3',
      WALLET_WITHDRAWAL_FEE_USD: '0.500000',
    },
  });
  wallets = service.running.app.get(WalletsService);
  deposits = service.running.app.get(DepositsService);
  withdrawals = service.running.app.get(WithdrawalsService);
  rebalances = service.running.app.get(RebalancesService);
});

afterAll(async () => {
  await service?.stop();
});

let orgs = 0;
const freshOrg = () => `org_${randomUUID().slice(0, 8)}_${(orgs += 1)}`;
const ctxOf = (orgId: string, role: Role = 'owner'): RequestContext => ({
  orgId,
  role,
  principalId: `user_${orgId}_${role}`,
  requestId: randomUUID(),
});
const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';
const USTB = 'service-ustb-vault';
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ZERO_BALANCE = { totalUsd: '0.000000', withdrawableUsd: '0.000000', reservedUsd: '0.000000', earnedUsd: '0.000000' };
const errorOf = (code: string) => ({ name: 'ServiceError', code });
const usdc = (entries: object[]) => ({ allocations: { usdc: entries } });
const move = (from: string, to: string, amountUsd: string) => ({ from, to, amountUsd });

/** A wallet created with `strategy` once the worker has provisioned it (idle). */
async function idleWallet(org: string, strategy = usdc([{ yieldSourceId: JAAA, pct: 100 }])): Promise<WalletDto> {
  const created = await wallets.create(ctxOf(org), { requestId: randomUUID(), strategy });
  return eventually(
    () => wallets.get(ctxOf(org), created.id),
    (wallet) => wallet.status === 'idle',
  );
}

/** A simulated deposit once the worker has settled it. */
async function settledDeposit(org: string, walletId: string, amountUsd: string): Promise<DepositDto> {
  const created = await deposits.simulate(ctxOf(org), { walletId, amountUsd });
  return eventually(
    () => deposits.get(ctxOf(org), { walletId, depositId: created.id }),
    (deposit) => deposit.status === 'completed',
  );
}

/** An idle wallet holding `cashUsd` in Sepolia USDC cash. */
async function fundedWallet(org: string, cashUsd: string): Promise<WalletDto> {
  const wallet = await idleWallet(org);
  await settledDeposit(org, wallet.id, cashUsd);
  return wallets.get(ctxOf(org), wallet.id);
}

/** The wallet once its workflows are done: idle with nothing reserved. */
const settledWallet = (org: string, walletId: string) =>
  eventually(
    () => wallets.get(ctxOf(org), walletId),
    (wallet) => wallet.status === 'idle' && wallet.balance.reservedUsd === '0.000000',
  );

const settledWithdrawal = (org: string, walletId: string, withdrawalId: string): Promise<WithdrawalDto> =>
  eventually(
    () => withdrawals.get(ctxOf(org), { walletId, withdrawalId }),
    (withdrawal) => withdrawal.status !== 'processing',
  );

describe('creating and reading wallets', () => {
  it('creates a wallet in creating that the worker provisions with deposit addresses, and reads it back', async () => {
    const org = freshOrg();
    const strategy = usdc([
      { yieldSourceId: JAAA, pct: 60 },
      { yieldSourceId: USTB, pct: 40 },
    ]);
    const created = await wallets.create(ctxOf(org), { requestId: randomUUID(), label: 'Treasury', strategy });
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      label: 'Treasury',
      status: 'creating',
      failureReason: null,
      autoRebalance: false,
      strategy,
      depositAddresses: {},
      balance: ZERO_BALANCE,
      positions: [],
      strategyAllocations: {
        usdc: [
          { yieldSourceId: JAAA, targetWeightBps: 6000 },
          { yieldSourceId: USTB, targetWeightBps: 4000 },
          { yieldSourceId: 'cash', targetWeightBps: 0 },
        ],
      },
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    const idle = await eventually(
      () => wallets.get(ctxOf(org), created.id),
      (wallet) => wallet.status === 'idle',
    );
    expect(idle).toEqual({
      ...created,
      status: 'idle',
      depositAddresses: {
        ethereum_sepolia: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        solana_devnet: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
        tron_nile: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
      },
      updatedAt: expect.stringMatching(ISO_MS),
    });
  });

  it('answers a repeated requestId with the first answer and refuses it with another payload', async () => {
    const org = freshOrg();
    const body = { requestId: randomUUID(), label: 'A', strategy: usdc([{ yieldSourceId: JAAA, pct: 100 }]) };
    const first = await wallets.create(ctxOf(org), body);
    await settledWallet(org, first.id);
    await expect(wallets.create(ctxOf(org), body)).resolves.toEqual(first);
    await expect(wallets.create(ctxOf(org), { ...body, label: 'B' })).rejects.toMatchObject(errorOf('request_id_conflict'));
    expect((await wallets.list(ctxOf(org), {})).data.map((wallet) => wallet.id)).toEqual([first.id]);
  });

  it.each([
    ['an unknown source', usdc([{ yieldSourceId: 'service-jaaa-vault', pct: 100 }]), 'yield_source_not_found'],
    ['a source in the wrong group', usdc([{ yieldSourceId: 'service-jaaa-usdt-vault', pct: 100 }]), 'invalid_position_weight'],
    ['weights not summing to 100', usdc([{ yieldSourceId: JAAA, pct: 90 }]), 'invalid_position_weight'],
  ])('refuses %s', async (_, strategy, code) => {
    await expect(wallets.create(ctxOf(freshOrg()), { requestId: randomUUID(), strategy })).rejects.toMatchObject(errorOf(code));
  });

  it('lists newest first with a cursor, stops at the per-organization limit and hides other organizations', async () => {
    const org = freshOrg();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1)
      ids.push((await wallets.create(ctxOf(org), { requestId: randomUUID(), strategy: usdc([{ yieldSourceId: JAAA, pct: 100 }]) })).id);
    await expect(
      wallets.create(ctxOf(org), { requestId: randomUUID(), strategy: usdc([{ yieldSourceId: JAAA, pct: 100 }]) }),
    ).rejects.toMatchObject(errorOf('wallet_limit_reached'));
    const first = await wallets.list(ctxOf(org), { limit: 2 });
    expect(first.data.map((wallet) => wallet.id)).toEqual([ids[2], ids[1]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    await expect(wallets.list(ctxOf(org), { limit: 2, cursor: first.nextCursor! })).resolves.toEqual({
      data: [expect.objectContaining({ id: ids[0] })],
      nextCursor: null,
    });
    await expect(wallets.list(ctxOf(org), { limit: 2, cursor: 'garbage!' })).rejects.toMatchObject(errorOf('invalid_cursor'));
    const stranger = ctxOf(freshOrg());
    await expect(wallets.list(stranger, {})).resolves.toEqual({ data: [], nextCursor: null });
    await expect(wallets.get(stranger, ids[0])).rejects.toMatchObject(errorOf('wallet_not_found'));
  });

  it('changes the strategy once per requestId and refuses another strategy under it', async () => {
    const org = freshOrg();
    const wallet = await idleWallet(org);
    const body = { walletId: wallet.id, requestId: randomUUID(), allocations: { usdc: [{ yieldSourceId: USTB, pct: 100 }] } };
    const changed = await wallets.updateStrategy(ctxOf(org), body);
    expect(changed.strategyAllocations).toEqual({
      usdc: [
        { yieldSourceId: USTB, targetWeightBps: 10000 },
        { yieldSourceId: 'cash', targetWeightBps: 0 },
      ],
    });
    await expect(wallets.updateStrategy(ctxOf(org), body)).resolves.toEqual(changed);
    await expect(
      wallets.updateStrategy(ctxOf(org), { ...body, allocations: { usdc: [{ yieldSourceId: JAAA, pct: 100 }] } }),
    ).rejects.toMatchObject(errorOf('request_id_conflict'));
    await expect(
      wallets.updateStrategy(ctxOf(org), {
        walletId: wallet.id,
        requestId: randomUUID(),
        allocations: { usdc: [{ yieldSourceId: JAAA, pct: 50 }] },
      }),
    ).rejects.toMatchObject(errorOf('invalid_position_weight'));
  });
});

describe('sandbox deposits', () => {
  it("settle after the delay and credit the wallet's cash", async () => {
    const org = freshOrg();
    const wallet = await idleWallet(org);
    const created = await deposits.simulate(ctxOf(org), { walletId: wallet.id, amountUsd: '125.5' });
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      amount: '125.500000',
      token: 'usdc',
      chain: 'ethereum_sepolia',
      fromAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      status: 'processing',
      createdAt: expect.stringMatching(ISO_MS),
      completedAt: null,
    });
    const done = await eventually(
      () => deposits.get(ctxOf(org), { walletId: wallet.id, depositId: created.id }),
      (deposit) => deposit.status === 'completed',
    );
    expect(done).toEqual({ ...created, status: 'completed', completedAt: expect.stringMatching(ISO_MS) });
    const after = await wallets.get(ctxOf(org), wallet.id);
    expect(after.positions).toEqual([
      { id: CASH, kind: 'cash', label: 'USDC on Ethereum Sepolia', valueUsd: '125.500000', pct: 100, yieldSourceId: null, token: 'usdc' },
    ]);
    expect(after.balance).toEqual({
      totalUsd: '125.500000',
      withdrawableUsd: '125.500000',
      reservedUsd: '0.000000',
      earnedUsd: '0.000000',
    });
    await expect(deposits.list(ctxOf(org), { walletId: wallet.id })).resolves.toEqual({ data: [done], nextCursor: null });
  });

  it.each([
    [{ amountUsd: '1.0000001' }, 'precision_overflow'],
    [{ amountUsd: '0' }, 'validation_error'],
    [{ amountUsd: '1', chain: 'ethereum' }, 'unsupported_chain'],
    [{ amountUsd: '1', chain: 'tron_nile', token: 'usdc' }, 'unsupported_token'],
  ])('refuses %p with %s', async (body, code) => {
    const org = freshOrg();
    const wallet = await idleWallet(org);
    await expect(deposits.simulate(ctxOf(org), { walletId: wallet.id, ...body })).rejects.toMatchObject(errorOf(code));
  });

  it('answers deposit_not_found and wallet_not_found', async () => {
    const org = freshOrg();
    const wallet = await idleWallet(org);
    await expect(deposits.get(ctxOf(org), { walletId: wallet.id, depositId: randomUUID() })).rejects.toMatchObject(
      errorOf('deposit_not_found'),
    );
    await expect(deposits.simulate(ctxOf(org), { walletId: randomUUID(), amountUsd: '1' })).rejects.toMatchObject(
      errorOf('wallet_not_found'),
    );
  });
});

describe('withdrawals', () => {
  const withdraw = (org: string, walletId: string, body: { amountUsd: string; requestId?: string }) =>
    withdrawals.create(ctxOf(org), {
      requestId: randomUUID(),
      walletId,
      destinationChain: 'ethereum_sepolia',
      token: 'usdc',
      destinationAddress: EVM,
      ...body,
    });

  it('reserves the amount, pays it minus the fee, and answers a repeated requestId with the same withdrawal', async () => {
    const org = freshOrg();
    const wallet = await fundedWallet(org, '30');
    const requestId = randomUUID();
    const created = await withdraw(org, wallet.id, { requestId, amountUsd: '12.25' });
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      amountRequestedUsd: '12.250000',
      amountPaidUsd: null,
      feeUsd: '0.500000',
      destinationChain: 'ethereum_sepolia',
      destinationAddress: EVM,
      destinationToken: 'usdc',
      status: 'processing',
      legsCompleted: 0,
      legsTotal: 1,
      payoutLegs: [expect.objectContaining({ status: 'planning', amountUsd: '12.250000', from: expect.objectContaining({ id: CASH }) })],
      failureReason: null,
      createdAt: expect.stringMatching(ISO_MS),
      completedAt: null,
    });
    await expect(withdraw(org, wallet.id, { requestId, amountUsd: '12.250000' })).resolves.toMatchObject({ id: created.id });
    const during = await wallets.get(ctxOf(org), wallet.id);
    expect(during.status).toBe('withdrawal_active');
    expect(during.balance).toEqual({
      totalUsd: '30.000000',
      withdrawableUsd: '17.750000',
      reservedUsd: '12.250000',
      earnedUsd: '0.000000',
    });
    const done = await settledWithdrawal(org, wallet.id, created.id);
    expect(done).toMatchObject({
      id: created.id,
      status: 'completed',
      amountPaidUsd: '11.750000',
      legsCompleted: 1,
      legsTotal: 1,
      failureReason: null,
    });
    expect(done.completedAt).toMatch(ISO_MS);
    expect(done.payoutLegs).toEqual([
      expect.objectContaining({
        status: 'completed',
        amountUsd: '12.250000',
        to: expect.objectContaining({ kind: 'external_payout', id: EVM }),
      }),
    ]);
    await expect(withdraw(org, wallet.id, { requestId, amountUsd: '12.25' })).resolves.toEqual(done);
    await expect(withdraw(org, wallet.id, { requestId, amountUsd: '13' })).rejects.toMatchObject(errorOf('request_id_conflict'));
    expect((await settledWallet(org, wallet.id)).balance).toEqual({
      totalUsd: '17.750000',
      withdrawableUsd: '17.750000',
      reservedUsd: '0.000000',
      earnedUsd: '0.000000',
    });
  });

  it("refuses more than is withdrawable with insufficient_funds and the wallet's balance", async () => {
    const org = freshOrg();
    const wallet = await fundedWallet(org, '10');
    await expect(withdraw(org, wallet.id, { amountUsd: '10.000001' })).rejects.toMatchObject({
      ...errorOf('insufficient_funds'),
      details: { balance: { totalUsd: '10.000000', withdrawableUsd: '10.000000', reservedUsd: '0.000000' } },
    });
    await expect(withdraw(org, wallet.id, { amountUsd: '0.5' })).rejects.toMatchObject(errorOf('validation_error'));
    await expect(withdraw(org, wallet.id, { amountUsd: '1.0000001' })).rejects.toMatchObject(errorOf('precision_overflow'));
    await expect(
      withdrawals.create(ctxOf(org), {
        requestId: randomUUID(),
        walletId: wallet.id,
        destinationChain: 'dogecoin',
        destinationAddress: EVM,
        amountUsd: '1',
      }),
    ).rejects.toMatchObject(errorOf('unsupported_chain'));
    await expect(withdrawals.get(ctxOf(org), { walletId: wallet.id, withdrawalId: randomUUID() })).rejects.toMatchObject(
      errorOf('withdrawal_not_found'),
    );
    await expect(withdrawals.list(ctxOf(org), { walletId: wallet.id })).resolves.toEqual({ data: [], nextCursor: null });
  });

  it('lists withdrawals newest first, page by page', async () => {
    const org = freshOrg();
    const wallet = await fundedWallet(org, '30');
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await withdraw(org, wallet.id, { amountUsd: '2' })).id);
    const first = await withdrawals.list(ctxOf(org), { walletId: wallet.id, limit: 2 });
    expect(first.data.map((item) => item.id)).toEqual([ids[2], ids[1]]);
    await expect(withdrawals.list(ctxOf(org), { walletId: wallet.id, limit: 2, cursor: first.nextCursor! })).resolves.toEqual({
      data: [expect.objectContaining({ id: ids[0] })],
      nextCursor: null,
    });
    await expect(withdrawals.list(ctxOf(org), { walletId: wallet.id, cursor: 'garbage' })).rejects.toMatchObject(errorOf('invalid_cursor'));
    await settledWallet(org, wallet.id);
  });
});

describe('allocate', () => {
  it('moves the amount by a workflow, reserving it meanwhile, and replays the same answer for the same requestId', async () => {
    const org = freshOrg();
    const wallet = await fundedWallet(org, '100');
    const requestId = randomUUID();
    const body = { walletId: wallet.id, requestId, allocations: [move(CASH, JAAA, '40')] };
    const answer = await rebalances.allocate(ctxOf(org), body);
    expect(answer).toEqual({
      rebalanceId: expect.stringMatching(UUID),
      requestId,
      status: 'created',
      createdAt: expect.stringMatching(ISO_MS),
      allocations: [move(CASH, JAAA, '40.000000')],
    });
    expect((await wallets.get(ctxOf(org), wallet.id)).balance.reservedUsd).toBe('40.000000');
    const done = await settledWallet(org, wallet.id);
    const positions = Object.fromEntries(done.positions.map((position) => [position.id, position]));
    expect(positions[CASH]?.valueUsd).toBe('60.000000');
    expect(positions[JAAA]).toMatchObject({ kind: 'yield_source', yieldSourceId: JAAA, token: 'usdc' });
    expect(BigInt(positions[JAAA]!.valueUsd.replace('.', ''))).toBeGreaterThanOrEqual(40_000_000n);
    await expect(rebalances.allocate(ctxOf(org), body)).resolves.toEqual(answer);
    await expect(rebalances.allocate(ctxOf(org), { ...body, allocations: [move(CASH, JAAA, '41')] })).rejects.toMatchObject(
      errorOf('request_id_conflict'),
    );
  });

  it('refuses to move more than a position holds', async () => {
    const org = freshOrg();
    const wallet = await fundedWallet(org, '10');
    await expect(
      rebalances.allocate(ctxOf(org), { walletId: wallet.id, requestId: randomUUID(), allocations: [move(CASH, JAAA, '10.000001')] }),
    ).rejects.toMatchObject(errorOf('insufficient_funds'));
  });
});
