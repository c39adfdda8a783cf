import { describe, expect, it } from '@jest/globals';
import { formatUsd } from '@service/money';
import { Catalogue, parseRateChanges } from '../catalogue/catalogue.js';
import { Ledger, type PositionRow, valueAt } from '../ledger.js';
import { type AccountingEntry, feeShare } from './entries.js';
import { buyLot, type Lot, redeemLots } from './lots.js';
import { type BoundaryPosition, type FlowTotal, flowsBetween, periodFigures, reconciliationReason } from './summary.js';

const WALLET = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';
const USTB = 'service-ustb-vault';
const USD = 1_000_000n;
const at = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

describe('FIFO lots', () => {
  it('mint units at the value per unit, burn the oldest first and consume their cost in proportion', () => {
    let lots: Lot[] = buyLot([], 0n, 100n, at('2026-01-01'));
    expect(lots).toEqual([{ units: 100n, cost: 100n, openedAtMs: at('2026-01-01').getTime() }]);
    // Accrual took the position to 110: a buy of 55 gets 50 units.
    lots = buyLot(lots, 110n, 55n, at('2026-01-02'));
    expect(lots[1]).toMatchObject({ units: 50n, cost: 55n });
    // 66 of 165 is 60 of 150 units, all from the oldest lot: cost 60, realized 6.
    const first = redeemLots(lots, 165n, 66n);
    expect(first.consumedCost).toBe(60n);
    expect(first.lots.map((lot) => [lot.units, lot.cost])).toEqual([
      [40n, 40n],
      [50n, 55n],
    ]);
    // Everything left: every unit and every cost.
    const rest = redeemLots(first.lots, 99n, 99n);
    expect(rest).toEqual({ lots: [], consumedCost: 95n });
  });

  it('spans lots when a redemption is larger than the oldest', () => {
    const lots: Lot[] = [
      { units: 10n, cost: 10n, openedAtMs: 1 },
      { units: 30n, cost: 33n, openedAtMs: 2 },
    ];
    // 20 of 40 units at a value of 80: 10 units of the first (cost 10) and 10 of the second (cost 11).
    expect(redeemLots(lots, 80n, 40n)).toEqual({ lots: [{ units: 20n, cost: 22n, openedAtMs: 2 }], consumedCost: 21n });
  });

  it('takes the flat fee from the first money delivered', () => {
    expect(feeShare(500_000n, 0n, 300_000n)).toBe(300_000n);
    expect(feeShare(500_000n, 300_000n, 10n * USD)).toBe(200_000n);
    expect(feeShare(500_000n, 10n * USD, 10n * USD)).toBe(0n);
  });
});

/**
 * A wallet's life in memory, as the use cases move its ledger: each step opens the ledger at its
 * instant (accrual settled), moves money, takes the accounting and saves the touched positions.
 * `boundary` and `flows` read the events as the repository's SQL does.
 */
class Simulation {
  rows: PositionRow[] = [];
  readonly events: AccountingEntry[] = [];
  constructor(readonly valuing: { catalogue: Catalogue; timeScale: number }) {}

  step(when: Date, act: (ledger: Ledger) => void): void {
    const copies = this.rows.map((row) => ({ ...row, lots: (row.lots ?? []).map((lot) => ({ ...lot })) }));
    const ledger = Ledger.settled(WALLET, copies, this.valuing, when);
    act(ledger);
    this.events.push(...ledger.takeAccounting());
    const saved = new Map(ledger.changed().map((row) => [row.positionId, row]));
    const kept = this.rows.filter((row) => !saved.has(row.positionId));
    this.rows = [...kept, ...saved.values()];
    ledger.saved();
  }

  boundary(t: Date): BoundaryPosition[] {
    const last = new Map<string, AccountingEntry>();
    for (const event of this.events) if (event.at < t) last.set(event.positionId, event);
    return [...last.values()].map((event) => ({
      walletId: WALLET,
      positionId: event.positionId,
      kind: event.positionKind,
      amount: event.positionAmount,
      accruedAt: event.positionAccruedAt,
      openCost: event.openCost,
      totals: event.totals,
    }));
  }

  flows(start: Date, end: Date): FlowTotal[] {
    const sums = new Map<string, FlowTotal>();
    for (const event of this.events) {
      if (event.at < start || event.at >= end) continue;
      const key = `${event.type} ${event.positionId}`;
      const sum = sums.get(key) ?? {
        type: event.type,
        positionId: event.positionId,
        kind: event.positionKind,
        amount: 0n,
        cost: 0n,
        realized: 0n,
      };
      sums.set(key, { ...sum, amount: sum.amount + event.amount, cost: sum.cost + event.cost, realized: sum.realized + event.realized });
    }
    return [...sums.values()];
  }

  figures(start: Date, end: Date) {
    return periodFigures(
      { start: this.boundary(start), end: this.boundary(end), flows: this.flows(start, end), startAt: start, endAt: end },
      this.valuing,
    );
  }
  /** {@link figures} with the flows from the running totals at the two boundaries, as the repository reads them. */
  figuresFromTotals(start: Date, end: Date) {
    const [from, to] = [this.boundary(start), this.boundary(end)];
    return periodFigures({ start: from, end: to, flows: flowsBetween(from, to), startAt: start, endAt: end }, this.valuing);
  }
}

/** JAAA accrues at 585 bps until March 1, 2026, then at 1000; USTB at 420 throughout. */
function scenario(): Simulation {
  const catalogue = new Catalogue('sandbox', { [JAAA]: [{ fromMs: at('2026-03-01').getTime(), apyBps: 1000 }] });
  const sim = new Simulation({ catalogue, timeScale: 1 });
  sim.step(at('2026-01-01'), (ledger) => ledger.receiveDeposit(CASH, 10_000n * USD, { type: 'deposit', id: 'd1' }));
  sim.step(at('2026-01-02'), (ledger) => {
    ledger.applyAll(
      [
        { from: CASH, to: JAAA, amount: 6_000n * USD },
        { from: CASH, to: USTB, amount: 3_000n * USD },
      ],
      { type: 'rebalance', id: 'r1' },
    );
  });
  sim.step(at('2026-02-01'), (ledger) =>
    ledger.applyAll([{ from: JAAA, to: CASH, amount: 2_000n * USD }], { type: 'rebalance', id: 'r2' }),
  );
  sim.step(at('2026-04-01'), (ledger) => ledger.payOut(USTB, 1_000n * USD, 500_000n, { type: 'withdrawal', id: 'w1' }));
  sim.step(at('2026-05-01'), (ledger) => ledger.payOut(CASH, 500n * USD, 0n, { type: 'withdrawal', id: 'w2' }));
  return sim;
}

function usd(figures: ReturnType<Simulation['figures']>) {
  return {
    start: formatUsd(figures.startingValue),
    end: formatUsd(figures.endingValue),
    deposits: formatUsd(figures.externalDeposits),
    payouts: formatUsd(figures.externalPayouts),
    fees: formatUsd(figures.explicitFees),
    realized: formatUsd(figures.realizedPerformance),
    unrealized: formatUsd(figures.unrealizedPerformance),
    investment: formatUsd(figures.investmentPerformance),
  };
}

function identitiesHold(figures: ReturnType<Simulation['figures']>): void {
  expect(figures.endingValue).toBe(
    figures.startingValue +
      figures.externalDeposits -
      figures.externalPayouts +
      figures.groundCredits -
      figures.explicitFees +
      figures.investmentPerformance,
  );
  expect(figures.investmentPerformance).toBe(figures.realizedPerformance + figures.unrealizedPerformance);
  expect(figures.unrealizedAtEnd - figures.unrealizedAtStart).toBe(figures.unrealizedPerformance);
}

describe('period figures from the accounting events', () => {
  const sim = scenario();

  it('match the figures computed by hand for three periods (a rate change inside the second)', () => {
    // Computed independently of this code (a few lines of Python, same rules): every settlement
    // (each step settles every yield position) adds floor(amount * sum(apyBps_i * ms_i) /
    // (10_000 * 365 days in ms)), the stretches split at JAAA's change on March 1; e.g. JAAA's
    // first month: floor(6000e6 * 585 * 30 days / (1e4 * 365 days)) = 28.849315 USD. A buy
    // mints units 1:1 into an empty position; the Feb 1 redemption of 2000 out of 6028.849315
    // burns floor(2000e6 * 6000e6 / 6028849315) units at cost 1 each: realized 9.570422.
    expect(usd(sim.figures(at('2026-01-01'), at('2026-02-01')))).toEqual({
      start: '0.000000',
      end: '10039.205479',
      deposits: '10000.000000',
      payouts: '0.000000',
      fees: '0.000000',
      realized: '0.000000',
      unrealized: '39.205479',
      investment: '39.205479',
    });
    expect(usd(sim.figures(at('2026-02-01'), at('2026-04-01')))).toEqual({
      start: '10039.205479',
      end: '10111.940685',
      deposits: '0.000000',
      payouts: '0.000000',
      fees: '0.000000',
      realized: '9.570422',
      unrealized: '63.164784',
      investment: '72.735206',
    });
    const third = sim.figures(at('2026-04-01'), at('2026-06-01'));
    expect(usd(third)).toEqual({
      start: '10111.940685',
      end: '8694.710555',
      deposits: '0.000000',
      payouts: '1499.500000',
      fees: '0.500000',
      realized: '10.160242',
      unrealized: '72.609628',
      investment: '82.769870',
    });
    expect(third.sources.map((source) => [source.yieldSourceId, formatUsd(source.entryValue), formatUsd(source.exitValue)])).toEqual([
      [JAAA, '4081.147090', '4149.637452'],
      [USTB, '3030.793595', '2045.073103'],
    ]);
  });

  it('hold every identity exactly and start a wallet from zero', () => {
    const whole = sim.figures(at('2025-12-01'), at('2026-06-01'));
    expect(whole.startingValue).toBe(0n);
    identitiesHold(whole);
    for (const source of whole.sources) expect(source.netPerformance).toBeGreaterThan(0n);
  });

  it('compose over random splits', () => {
    let seed = 40;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const from = at('2025-12-15').getTime();
    const to = at('2026-06-01').getTime();
    for (let round = 0; round < 200; round += 1) {
      const [a, m, b] = [from + random() * (to - from), from + random() * (to - from), from + random() * (to - from)]
        .map(Math.floor)
        .sort((x, y) => x - y);
      if (!(a < m && m < b)) continue;
      const [whole, left, right] = [
        sim.figures(new Date(a), new Date(b)),
        sim.figures(new Date(a), new Date(m)),
        sim.figures(new Date(m), new Date(b)),
      ];
      identitiesHold(left);
      // The running totals give what the sums of the events in between give.
      expect(sim.figuresFromTotals(new Date(a), new Date(b))).toEqual(whole);
      expect(whole.startingValue).toBe(left.startingValue);
      expect(whole.endingValue).toBe(right.endingValue);
      expect(left.endingValue).toBe(right.startingValue);
      for (const key of [
        'externalDeposits',
        'externalPayouts',
        'explicitFees',
        'realizedPerformance',
        'unrealizedPerformance',
        'investmentPerformance',
      ] as const) {
        expect(whole[key]).toBe(left[key] + right[key]);
      }
    }
  });

  it("end where the wallet's balance is, and reconcile with the positions", () => {
    const now = at('2026-06-01');
    const balance = sim.rows.reduce((sum, row) => sum + valueAt(row, sim.valuing.catalogue, 1, now).value, 0n);
    const figures = sim.figures(at('2026-01-01'), now);
    expect(figures.endingValue).toBe(balance);
    const current = sim.rows.map((row) => ({
      walletId: WALLET,
      positionId: row.positionId,
      kind: row.kind,
      amount: row.amount,
      accruedAtMs: row.accruedAt.getTime(),
      last: sim.boundary(new Date(8_640_000_000_000_000)).find((position) => position.positionId === row.positionId) ?? null,
    }));
    expect(reconciliationReason(current, figures)).toBeNull();
    // A position the ledger does not know: not exact, and why.
    const stray = [
      ...current,
      { walletId: WALLET, positionId: CASH.replace('usdc', 'usdt'), kind: 'cash', amount: 1n, accruedAtMs: 0, last: null },
    ];
    expect(reconciliationReason(stray, figures)).toMatch(/before the accounting ledger existed/);
  });

  it('refuses to save positions whose accounting was not taken', async () => {
    const { addLedger } = await import('../../repositories/positions.repository.js');
    const { Writes } = await import('../../repositories/writes.js');
    const ledger = Ledger.settled(WALLET, [], sim.valuing, at('2026-01-01'));
    ledger.receiveDeposit(CASH, USD, { type: 'deposit', id: 'd' });
    expect(() => addLedger(new Writes(), ledger)).toThrow(/accounting/);
  });
});

describe('rate changes (WALLET_ACCRUAL_RATE_CHANGES)', () => {
  it('are read, checked and split accrual into stretches', () => {
    const changes = parseRateChanges(JSON.stringify({ [JAAA]: [{ from: '2026-03-01T00:00:00Z', apyBps: 1000 }] }));
    const catalogue = new Catalogue('sandbox', changes);
    const source = catalogue.get(JAAA);
    expect(catalogue.accrualBps(source, at('2026-02-28'))).toBe(585);
    expect(catalogue.accrualBps(source, at('2026-03-01'))).toBe(1000);
    expect(catalogue.rateSegments(source, at('2026-02-01').getTime(), at('2026-04-01').getTime())).toEqual([
      { apyBps: 585, elapsedMs: 28 * 86_400_000 },
      { apyBps: 1000, elapsedMs: 31 * 86_400_000 },
    ]);
    expect(() => parseRateChanges('[]')).toThrow(/JSON object/);
    expect(() => parseRateChanges(JSON.stringify({ [JAAA]: [{ from: 'yesterday', apyBps: 1 }] }))).toThrow(/ISO 8601/);
    expect(() => parseRateChanges(JSON.stringify({ [JAAA]: [{ from: '2026-03-01T00:00:00Z', apyBps: 1.5 }] }))).toThrow(/integer/);
    expect(() =>
      parseRateChanges(
        JSON.stringify({
          [JAAA]: [
            { from: '2026-03-01T00:00:00Z', apyBps: 1 },
            { from: '2026-02-01T00:00:00Z', apyBps: 2 },
          ],
        }),
      ),
    ).toThrow(/increasing/);
    expect(() => new Catalogue('sandbox', { 'no-such-source': [] })).toThrow(/not in the sandbox catalogue/);
  });
});
