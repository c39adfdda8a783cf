import { describe, expect, it } from '@jest/globals';
import { Catalogue } from './catalogue/catalogue.js';
import { Ledger } from './ledger.js';

const valuation = { catalogue: new Catalogue('sandbox'), timeScale: 1_000_000 };
const JAAA = 'service-jaaa-usdc-vault';
const T = Date.parse('2026-11-24T12:00:00.000Z');

function position(accruedAtMs: number) {
  return { positionId: JAAA, kind: 'yield_source', amount: 100_000_000n, reserved: 0n, earned: 0n, accruedAt: new Date(accruedAtMs) };
}

describe('Ledger.settled', () => {
  it('accrues yield from the stored time to now, and stores now', () => {
    const [row] = Ledger.settled('w', [position(T)], valuation, new Date(T + 60_000)).positions();
    expect(row?.amount).toBeGreaterThan(100_000_000n);
    expect(row?.earned).toBe((row?.amount ?? 0n) - 100_000_000n);
    expect(row?.accruedAt).toEqual(new Date(T + 60_000));
  });

  it('keeps a stored time later than now: the stretch between is accrued once, by whoever reaches it next', () => {
    const ledger = Ledger.settled('w', [position(T + 60_000)], valuation, new Date(T));
    expect(ledger.positions()).toEqual([position(T + 60_000)]);
    // Settled again later, the yield runs from the stored time, not from the earlier now.
    const [later] = Ledger.settled('w', ledger.positions(), valuation, new Date(T + 120_000)).positions();
    const [direct] = Ledger.settled('w', [position(T + 60_000)], valuation, new Date(T + 120_000)).positions();
    expect(later).toEqual(direct);
  });
});
