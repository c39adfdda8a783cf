import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PeriodSummaryDto, RequestContext, WalletDto } from '@service/contracts';
import { formatUsd, parseUsd as parseUsdStrict } from '@service/money';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { eventually } from '@service/testing';
import { walletConfigSpec } from '../../config.js';
import { AppModule } from '../app.module.js';
import { DepositsService } from '../deposits/deposits.service.js';
import { WalletEnvironment } from '../environment/wallet-environment.js';
import { RebalancesService } from '../rebalances/rebalances.service.js';
import { WalletsService } from '../wallets/wallets.service.js';
import { WithdrawalsService } from '../withdrawals/withdrawals.service.js';
import { AccountingService } from './accounting.service.js';

/**
 * The accounting reports on the real use cases, in process (its own schema, NATS server and
 * worker), with the service's clock pinned (`WalletEnvironment.pinClock`): each step happens at
 * an instant the test chose, so the figures are computed by hand to the micro-dollar. JAAA's
 * rate changes from 585 to 1000 bps on March 1, 2026 (`WALLET_ACCRUAL_RATE_CHANGES`).
 */
let service: InProcessService;
let env: WalletEnvironment;
let wallets: WalletsService;
let deposits: DepositsService;
let withdrawals: WithdrawalsService;
let rebalances: RebalancesService;
let accounting: AccountingService;

const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';
const USTB = 'service-ustb-vault';
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const at = (day: string) => `${day}T00:00:00.000Z`;

beforeAll(async () => {
  service = await startServiceInProcess({
    name: 'wallet',
    module: AppModule.forRoot,
    spec: walletConfigSpec,
    env: {
      WALLET_DEPOSIT_SETTLEMENT_MS: '0',
      WALLET_REBALANCE_PROCESSING_MS: '0',
      WALLET_PAYOUT_STEP_MS: '0',
      WALLET_WORKER_POLL_MS: '20',
      WALLET_WITHDRAWAL_FEE_USD: '0.500000',
      WALLET_ACCRUAL_RATE_CHANGES: JSON.stringify({ [JAAA]: [{ from: at('2026-03-01'), apyBps: 1000 }] }),
    },
  });
  env = service.running.app.get(WalletEnvironment);
  wallets = service.running.app.get(WalletsService);
  deposits = service.running.app.get(DepositsService);
  withdrawals = service.running.app.get(WithdrawalsService);
  rebalances = service.running.app.get(RebalancesService);
  accounting = service.running.app.get(AccountingService);
});

afterAll(async () => {
  await service?.stop();
});

const ctxOf = (orgId: string): RequestContext => ({ orgId, role: 'owner', principalId: `user_${orgId}`, requestId: randomUUID() });
const freshOrg = () => `org_acct_${randomUUID().slice(0, 8)}`;
const errorOf = (code: string) => ({ name: 'ServiceError', code });
/** Figures may be negative (a period that realizes gains accrued before it has a negative unrealized part). */
const parseUsd = (value: string) => parseUsdStrict(value, { allowNegative: true });

/** The service's clock stands at `day` from now on. */
const pin = (day: string) => env.pinClock(new Date(at(day)));

const settled = (org: string, walletId: string) =>
  eventually(
    () => wallets.get(ctxOf(org), walletId),
    (wallet) => wallet.status === 'idle' && wallet.balance.reservedUsd === '0.000000',
  );

async function idleWallet(org: string): Promise<WalletDto> {
  const created = await wallets.create(ctxOf(org), {
    requestId: randomUUID(),
    strategy: { allocations: { usdc: [{ yieldSourceId: JAAA, pct: 100 }] } },
  });
  return settled(org, created.id);
}

async function deposit(org: string, walletId: string, amountUsd: string): Promise<void> {
  const created = await deposits.simulate(ctxOf(org), { walletId, amountUsd });
  await eventually(
    () => deposits.get(ctxOf(org), { walletId, depositId: created.id }),
    (found) => found.status === 'completed',
  );
}

async function allocate(org: string, walletId: string, moves: [string, string, string][]): Promise<void> {
  await rebalances.allocate(ctxOf(org), {
    walletId,
    requestId: randomUUID(),
    allocations: moves.map(([from, to, amountUsd]) => ({ from, to, amountUsd })),
  });
  await settled(org, walletId);
}

async function withdraw(org: string, walletId: string, amountUsd: string): Promise<void> {
  const created = await withdrawals.create(ctxOf(org), {
    requestId: randomUUID(),
    walletId,
    destinationChain: 'ethereum_sepolia',
    token: 'usdc',
    destinationAddress: EVM,
    amountUsd,
  });
  const done = await eventually(
    () => withdrawals.get(ctxOf(org), { walletId, withdrawalId: created.id }),
    (withdrawal) => withdrawal.status !== 'processing',
  );
  expect(done.status).toBe('completed');
  await settled(org, walletId);
}

const summaryOf = (org: string, query: { walletId?: string; scope?: 'organization'; start: string; end: string }) =>
  accounting.periodSummary(ctxOf(org), query);

function identitiesHold(report: PeriodSummaryDto): void {
  const s = report.summary;
  const u = (value: string) => parseUsd(value);
  expect(u(s.endingValueUsd)).toBe(
    u(s.startingValueUsd) +
      u(s.externalDepositsUsd) -
      u(s.externalPayoutsUsd) +
      u(s.groundCreditsUsd) -
      u(s.explicitFeesUsd) +
      u(s.investmentPerformanceUsd),
  );
  expect(u(s.investmentPerformanceUsd)).toBe(u(s.realizedPerformanceUsd) + u(s.unrealizedPerformanceUsd));
  for (const source of report.yieldSources) expect(source.netPerformanceUsd).toMatch(/^-?\d+\.\d{6}$/);
}

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

describe('accounting of a wallet funded, allocated across two sources, partly redeemed and withdrawn', () => {
  const org = freshOrg();
  let walletId: string;

  beforeAll(async () => {
    pin('2026-01-01');
    walletId = (await idleWallet(org)).id;
    await deposit(org, walletId, '10000');
    pin('2026-01-02');
    await allocate(org, walletId, [
      [CASH, JAAA, '6000'],
      [CASH, USTB, '3000'],
    ]);
    pin('2026-02-01');
    await allocate(org, walletId, [[JAAA, CASH, '2000']]);
    // Cash (3000) first, then 500 from the largest source (JAAA); the flat fee of 0.5 once.
    pin('2026-04-01');
    await withdraw(org, walletId, '3500');
    pin('2026-05-01');
    await deposit(org, walletId, '250');
    pin('2026-06-01');
  });

  afterAll(() => env.pinClock(null));

  it('answers the figures computed by hand for three periods, the second across a rate change', async () => {
    // Computed independently of this code (a few lines of Python, same rules): every settlement
    // (each step settles every yield position) adds floor(amount * sum(apyBps_i * ms_i) /
    // (10_000 * 365 days in ms)), the stretches split at JAAA's change on March 1; e.g. JAAA's
    // first month: floor(6000e6 * 585 * 30 days / (1e4 * 365 days)) = 28.849315 USD. A buy
    // mints units 1:1 into an empty position; the Feb 1 redemption of 2000 out of 6028.849315
    // burns floor(2000e6 * 6000e6 / 6028849315) units at cost 1 each: realized 9.570422.
    const first = await summaryOf(org, { walletId, start: at('2026-01-01'), end: at('2026-02-01') });
    expect(first).toEqual({
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
    const second = await summaryOf(org, { walletId, start: at('2026-02-01'), end: at('2026-04-01') });
    expect(second.summary).toMatchObject({
      startingValueUsd: '10039.205479',
      endingValueUsd: '10111.940685',
      externalDepositsUsd: '0.000000',
      externalPayoutsUsd: '0.000000',
      explicitFeesUsd: '0.000000',
      realizedPerformanceUsd: '9.570422',
      unrealizedPerformanceUsd: '63.164784',
      investmentPerformanceUsd: '72.735206',
    });
    expect(second.yieldSources.map((source) => [source.yieldSourceId, source.entryValueUsd, source.exitValueUsd])).toEqual([
      [JAAA, '6028.849315', '4081.147090'],
      [USTB, '3010.356164', '3030.793595'],
    ]);
    const third = await summaryOf(org, { walletId, start: at('2026-04-01'), end: at('2026-06-01') });
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
    expect(third.yieldSources.map((source) => [source.yieldSourceId, source.entryValueUsd, source.exitValueUsd])).toEqual([
      [JAAA, '4081.147090', '3641.246384'],
      [USTB, '3030.793595', '3052.104595'],
    ]);
    for (const report of [first, second, third]) identitiesHold(report);
  });

  it("ends a period ending now at the wallet's balance, and starts one before the wallet at zero", async () => {
    const now = await summaryOf(org, { walletId, start: at('2026-03-15'), end: at('2026-06-01') });
    const wallet = await wallets.get(ctxOf(org), walletId);
    expect(now.summary.endingValueUsd).toBe(wallet.balance.totalUsd);
    const before = await summaryOf(org, { walletId, start: at('2025-06-01'), end: at('2025-12-31') });
    for (const field of FIGURES) expect(before.summary[field]).toBe('0.000000');
    expect(before.yieldSources).toEqual([]);
  });

  it('composes over random splits', async () => {
    const from = Date.parse(at('2025-12-20'));
    const to = Date.parse(at('2026-06-01'));
    for (let round = 0; round < 12; round += 1) {
      const [a, m, b] = [0, 1, 2].map(() => from + Math.floor(Math.random() * (to - from))).sort((x, y) => x - y) as [
        number,
        number,
        number,
      ];
      if (!(a < m && m < b)) continue;
      const iso = (ms: number) => new Date(ms).toISOString();
      const [whole, left, right] = await Promise.all([
        summaryOf(org, { walletId, start: iso(a), end: iso(b) }),
        summaryOf(org, { walletId, start: iso(a), end: iso(m) }),
        summaryOf(org, { walletId, start: iso(m), end: iso(b) }),
      ]);
      identitiesHold(whole);
      expect(whole.summary.startingValueUsd).toBe(left.summary.startingValueUsd);
      expect(whole.summary.endingValueUsd).toBe(right.summary.endingValueUsd);
      expect(left.summary.endingValueUsd).toBe(right.summary.startingValueUsd);
      for (const field of FIGURES.slice(2)) {
        expect(whole.summary[field]).toBe(formatUsd(parseUsd(left.summary[field]) + parseUsd(right.summary[field])));
      }
    }
  });

  it("lists the ledger's events as activity, by scope and type, page by page", async () => {
    const all = await accounting.activity(ctxOf(org), { walletId, startAt: at('2026-01-01'), endAt: at('2026-06-01'), limit: 100 });
    expect(all.nextCursor).toBeNull();
    const types = all.data.map((item) => item.eventType);
    expect(types.filter((type) => type === 'deposit')).toHaveLength(2);
    expect(types.filter((type) => type === 'buy')).toHaveLength(2);
    expect(types.filter((type) => type === 'redeem')).toHaveLength(2);
    expect(types.filter((type) => type === 'fee')).toHaveLength(1);
    expect(types.filter((type) => type === 'payout')).toHaveLength(2);
    expect(all.data[0]).toMatchObject({
      type: 'deposit',
      amountUsd: '250.000000',
      timestamp: at('2026-05-01'),
      walletId,
      accountId: CASH,
      accountKind: 'cash',
      chain: 'ethereum_sepolia',
      token: 'usdc',
      nativeUnits: '250000000',
      settlementValuedAt: at('2026-05-01'),
    });
    const withdrawn = await accounting.activity(ctxOf(org), {
      walletId,
      startAt: at('2026-01-01'),
      endAt: at('2026-06-01'),
      type: 'withdrawal',
    });
    expect(withdrawn.data.map((item) => item.amountUsd).sort()).toEqual(['0.500000', '2999.500000', '500.000000']);
    const firstPage = await accounting.activity(ctxOf(org), { walletId, startAt: at('2026-01-01'), endAt: at('2026-06-01'), limit: 3 });
    expect(firstPage.data).toEqual(all.data.slice(0, 3));
    const nextPage = await accounting.activity(ctxOf(org), {
      walletId,
      startAt: at('2026-01-01'),
      endAt: at('2026-06-01'),
      limit: 3,
      cursor: firstPage.nextCursor as string,
    });
    expect(nextPage.data).toEqual(all.data.slice(3, 6));
    const walletActivity = await accounting.walletActivity(ctxOf(org), { walletId });
    expect(walletActivity.data.map((item) => [item.type, item.amountUsd])).toEqual([
      ['deposit', '250.000000'],
      ['withdrawal', '500.000000'],
      ['withdrawal', '2999.500000'],
      ['deposit', '10000.000000'],
    ]);
    const deposited = await accounting.walletActivity(ctxOf(org), { walletId, type: 'deposit', limit: 1 });
    expect(deposited.data.map((item) => item.amountUsd)).toEqual(['250.000000']);
    expect(deposited.nextCursor).not.toBeNull();
    // A cursor holds its list and filters: not another list's, nor the same list's with other filters.
    const range = { walletId, startAt: at('2026-01-01'), endAt: at('2026-06-01') };
    await expect(accounting.activity(ctxOf(org), { ...range, cursor: deposited.nextCursor as string })).rejects.toMatchObject(
      errorOf('invalid_cursor'),
    );
    await expect(
      accounting.activity(ctxOf(org), { ...range, type: 'deposit', limit: 3, cursor: firstPage.nextCursor as string }),
    ).rejects.toMatchObject(errorOf('invalid_cursor'));
  });

  it('refuses bad scopes, bad dates and the wallets of other organizations', async () => {
    const period = { start: at('2026-01-01'), end: at('2026-02-01') };
    await expect(summaryOf(org, period)).rejects.toMatchObject(errorOf('validation_error'));
    await expect(summaryOf(org, { ...period, walletId, scope: 'organization' })).rejects.toMatchObject(errorOf('validation_error'));
    await expect(summaryOf(org, { walletId, start: at('2026-02-01'), end: at('2026-02-01') })).rejects.toMatchObject(
      errorOf('validation_error'),
    );
    await expect(summaryOf(org, { walletId, start: at('2026-03-01'), end: at('2026-02-01') })).rejects.toMatchObject(
      errorOf('validation_error'),
    );
    await expect(summaryOf(org, { walletId, start: at('2026-01-01'), end: at('2026-06-02') })).rejects.toMatchObject(
      errorOf('validation_error'),
    );
    await expect(summaryOf(freshOrg(), { walletId, ...period })).rejects.toMatchObject(errorOf('wallet_not_found'));
    await expect(accounting.activity(ctxOf(freshOrg()), { walletId, startAt: period.start, endAt: period.end })).rejects.toMatchObject(
      errorOf('wallet_not_found'),
    );
    await expect(accounting.walletActivity(ctxOf(freshOrg()), { walletId })).rejects.toMatchObject(errorOf('wallet_not_found'));
    await expect(
      accounting.activity(ctxOf(org), { walletId, startAt: period.start, endAt: period.end, cursor: 'not-a-cursor' }),
    ).rejects.toMatchObject(errorOf('invalid_cursor'));
  });
});

describe('accounting of an organization', () => {
  it('is the sum of its three wallets', async () => {
    const org = freshOrg();
    pin('2026-01-01');
    const ids: string[] = [];
    for (const amount of ['100', '2000', '30000']) {
      const wallet = await idleWallet(org);
      ids.push(wallet.id);
      await deposit(org, wallet.id, amount);
    }
    pin('2026-01-10');
    await allocate(org, ids[1] as string, [[CASH, JAAA, '1500']]);
    await allocate(org, ids[2] as string, [
      [CASH, USTB, '20000'],
      [CASH, JAAA, '5000'],
    ]);
    pin('2026-03-20');
    await allocate(org, ids[2] as string, [[USTB, CASH, '7000']]);
    await withdraw(org, ids[0] as string, '40');
    pin('2026-04-01');
    try {
      for (const [start, end] of [
        [at('2025-12-01'), at('2026-04-01')],
        [at('2026-01-05'), at('2026-03-20')],
        [at('2026-03-20'), at('2026-04-01')],
      ] as const) {
        const whole = await summaryOf(org, { scope: 'organization', start, end });
        expect(whole).toMatchObject({ scope: 'organization', portfolioWalletId: null, status: 'exact', reason: null });
        identitiesHold(whole);
        const parts = await Promise.all(ids.map((walletId) => summaryOf(org, { walletId, start, end })));
        for (const field of FIGURES) {
          expect(whole.summary[field]).toBe(formatUsd(parts.reduce((sum, part) => sum + parseUsd(part.summary[field]), 0n)));
        }
        const bySource = new Map<string, bigint>();
        for (const part of parts) {
          for (const source of part.yieldSources) {
            bySource.set(source.yieldSourceId, (bySource.get(source.yieldSourceId) ?? 0n) + parseUsd(source.netPerformanceUsd));
          }
        }
        expect(whole.yieldSources.map((source) => [source.yieldSourceId, parseUsd(source.netPerformanceUsd)])).toEqual(
          [...bySource.entries()].sort(),
        );
      }
      const everything = await accounting.activity(ctxOf(org), {
        scope: 'organization',
        startAt: at('2026-01-01'),
        endAt: at('2026-04-01'),
        limit: 100,
      });
      expect(new Set(everything.data.map((item) => item.walletId))).toEqual(new Set(ids));
    } finally {
      env.pinClock(null);
    }
  });
});

describe('the clock', () => {
  it('moves by WALLET_CLOCK_OFFSET_MS in the sandbox only, and pins in the sandbox only', () => {
    const config = env.config;
    const ahead = new WalletEnvironment({ ...config, WALLET_CLOCK_OFFSET_MS: 86_400_000 });
    expect(ahead.now().getTime() - Date.now()).toBeGreaterThan(86_399_000);
    const production = { ...config, SERVICE_ENV: 'production' as const, WALLET_ADDRESS_SEED: Buffer.alloc(32, 7) };
    expect(() => new WalletEnvironment({ ...production, WALLET_CLOCK_OFFSET_MS: 1 })).toThrow(/sandbox only/);
    expect(() => new WalletEnvironment(production).pinClock(new Date())).toThrow(/sandbox only/);
  });
});
