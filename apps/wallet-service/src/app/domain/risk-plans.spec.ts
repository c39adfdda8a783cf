import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '@service/errors';
import { WALLET_CHAINS } from '@service/contracts';
import { Catalogue } from './catalogue/catalogue.js';
import type { CatalogueEntry } from './catalogue/types.js';
import type { WalletChains } from './chains.js';
import type { Move } from './instructions.js';
import { Ledger, type PositionRow } from './ledger.js';
import { checkNotBlocked, exitRemainder, MIN_REBALANCE_LEG, planDepositAllocation, planExit, planToTargets } from './rebalance-plans.js';
import { riskEffectOf } from './risk-events.js';
import type { Strategy } from './strategy.js';

const JAAA = 'service-jaaa-usdc-vault';
const USTB = 'service-ustb-vault';
/** A third USDC source, only in {@link widerEnv}: weights among several other sources. */
const THIRD = 'test-third-usdc-vault';
const CASH = 'cash:ethereum_sepolia:usdc';
const usd = (dollars: number) => BigInt(Math.round(dollars * 1_000_000));

const chains = WALLET_CHAINS.sandbox;
const env: WalletChains = { catalogue: new Catalogue('sandbox'), chains, allChains: [...chains, 'stellar_testnet'] };

/** The sandbox catalogue with one more USDC source. */
class WiderCatalogue extends Catalogue {
  private readonly third: CatalogueEntry = { ...new Catalogue('sandbox').get(USTB), id: THIRD };
  override find(id: string): CatalogueEntry | undefined {
    return id === THIRD ? this.third : super.find(id);
  }
}
const widerEnv: WalletChains = { ...env, catalogue: new WiderCatalogue('sandbox') };

const row = (positionId: string, amount: bigint, reserved = 0n): PositionRow => ({
  positionId,
  kind: positionId.startsWith('cash:') ? 'cash' : 'yield_source',
  amount,
  reserved,
  earned: 0n,
  accruedAt: new Date(0),
});
const total = (moves: readonly Move[]) => moves.reduce((sum, move) => sum + move.amount, 0n);

describe('a blocked source in a strategy rebalance', () => {
  const strategy: Strategy = {
    usdc: [
      { yieldSourceId: JAAA, bps: 6000 },
      { yieldSourceId: USTB, bps: 4000 },
    ],
  };

  it('is not bought: its share stays in cash, the other source gets its own', () => {
    const moves = planToTargets(strategy, [row(CASH, usd(1000))], env, new Set([JAAA]));
    expect(moves).toEqual([{ from: CASH, to: USTB, amount: usd(400) }]);
    // Without the block both are bought.
    expect(planToTargets(strategy, [row(CASH, usd(1000))], env)).toEqual([
      { from: CASH, to: JAAA, amount: usd(600) },
      { from: CASH, to: USTB, amount: usd(400) },
    ]);
  });

  it('keeps what the wallet holds there (no sell because of the block), and tops up nothing', () => {
    const moves = planToTargets(strategy, [row(CASH, usd(700)), row(JAAA, usd(300))], env, new Set([JAAA]));
    expect(moves).toEqual([{ from: CASH, to: USTB, amount: usd(400) }]);
  });

  it('is still sold down to a lower target', () => {
    const lower: Strategy = {
      usdc: [
        { yieldSourceId: JAAA, bps: 2000 },
        { yieldSourceId: USTB, bps: 8000 },
      ],
    };
    const moves = planToTargets(lower, [row(JAAA, usd(1000))], env, new Set([JAAA]));
    expect(moves).toEqual([
      { from: JAAA, to: CASH, amount: usd(800) },
      { from: CASH, to: USTB, amount: usd(800) },
    ]);
  });

  it("leaves a blocked source's share of an autoRebalance deposit in cash", () => {
    expect(planDepositAllocation(strategy, CASH, usd(1000), env, new Set([USTB]))).toEqual([{ from: CASH, to: JAAA, amount: usd(600) }]);
    expect(planDepositAllocation(strategy, CASH, usd(1000), env, new Set([JAAA, USTB]))).toEqual([]);
  });
});

describe('checkNotBlocked (allocate)', () => {
  it('refuses an instruction into a blocked source with yield_source_blocked, and lets one out of it through', () => {
    const blocked = new Set([JAAA]);
    expect(() => checkNotBlocked('w', [{ from: CASH, to: JAAA, amount: usd(10) }], blocked)).toThrow(ServiceError);
    try {
      checkNotBlocked('w', [{ from: CASH, to: JAAA, amount: usd(10) }], blocked);
    } catch (error) {
      expect((error as ServiceError).code).toBe('yield_source_blocked');
      expect((error as ServiceError).status).toBe(409);
    }
    expect(() => checkNotBlocked('w', [{ from: JAAA, to: USTB, amount: usd(10) }], blocked)).not.toThrow();
    expect(() => checkNotBlocked('w', [{ from: JAAA, to: CASH, amount: usd(10) }], blocked)).not.toThrow();
  });
});

describe('planExit', () => {
  it('moves the whole position to the other source of the group', () => {
    const strategy: Strategy = {
      usdc: [
        { yieldSourceId: JAAA, bps: 5000 },
        { yieldSourceId: USTB, bps: 3000 },
        { yieldSourceId: 'cash', bps: 2000 },
      ],
    };
    expect(planExit(strategy, JAAA, usd(1234.567891), env)).toEqual([{ from: JAAA, to: USTB, amount: usd(1234.567891) }]);
  });

  it('splits by the other sources’ strategy weights, the rounding remainder into cash, nothing left in the source', () => {
    const strategy: Strategy = {
      usdc: [
        { yieldSourceId: JAAA, bps: 4000 },
        { yieldSourceId: USTB, bps: 4000 },
        { yieldSourceId: THIRD, bps: 2000 },
      ],
    };
    const amount = 1_000_000_001n; // 1000.000001 USD: 2/3 and 1/3 do not divide it
    const moves = planExit(strategy, JAAA, amount, widerEnv);
    expect(moves).toEqual([
      { from: JAAA, to: USTB, amount: 666_666_667n },
      { from: JAAA, to: THIRD, amount: 333_333_333n },
      { from: JAAA, to: CASH, amount: 1n },
    ]);
    expect(total(moves)).toBe(amount);
  });

  it('sends a leg below the minimum to cash', () => {
    const strategy: Strategy = {
      usdc: [
        { yieldSourceId: JAAA, bps: 5000 },
        { yieldSourceId: USTB, bps: 4900 },
        { yieldSourceId: THIRD, bps: 100 },
      ],
    };
    // 100 USD: THIRD's share (2 USD) is below the 5 USD minimum leg.
    const moves = planExit(strategy, JAAA, usd(100), widerEnv);
    expect(moves).toEqual([
      { from: JAAA, to: USTB, amount: usd(98) },
      { from: JAAA, to: CASH, amount: usd(2) },
    ]);
    expect(usd(2)).toBeLessThan(MIN_REBALANCE_LEG);
  });

  it('leaves out blocked sources, and goes all to cash when no other source remains', () => {
    const strategy: Strategy = {
      usdc: [
        { yieldSourceId: JAAA, bps: 4000 },
        { yieldSourceId: USTB, bps: 4000 },
        { yieldSourceId: THIRD, bps: 2000 },
      ],
    };
    expect(planExit(strategy, JAAA, usd(500), widerEnv, new Set([USTB]))).toEqual([{ from: JAAA, to: THIRD, amount: usd(500) }]);
    expect(planExit({ usdc: [{ yieldSourceId: JAAA, bps: 10_000 }] }, JAAA, usd(500), env)).toEqual([
      { from: JAAA, to: CASH, amount: usd(500) },
    ]);
    expect(planExit(strategy, JAAA, usd(500), widerEnv, new Set([USTB, THIRD]))).toEqual([{ from: JAAA, to: CASH, amount: usd(500) }]);
    // A source of the strategy held at 0 bps is not a destination.
    expect(
      planExit(
        {
          usdc: [
            { yieldSourceId: JAAA, bps: 10_000 },
            { yieldSourceId: USTB, bps: 0 },
          ],
        },
        JAAA,
        usd(500),
        env,
      ),
    ).toEqual([{ from: JAAA, to: CASH, amount: usd(500) }]);
  });

  it('moves a position below the minimum leg to cash, and plans nothing for nothing', () => {
    const strategy: Strategy = {
      usdc: [
        { yieldSourceId: JAAA, bps: 5000 },
        { yieldSourceId: USTB, bps: 5000 },
      ],
    };
    expect(planExit(strategy, JAAA, usd(3), env)).toEqual([{ from: JAAA, to: CASH, amount: usd(3) }]);
    expect(planExit(strategy, JAAA, 0n, env)).toEqual([]);
    expect(planExit(strategy, 'not-a-source', usd(3), env)).toEqual([]);
  });
});

describe('riskEffectOf', () => {
  const ids = {
    action: '11111111-1111-4111-8111-111111111111',
    wallet: '22222222-2222-4222-8222-222222222222',
    alert: '33333333-3333-4333-8333-333333333333',
  };
  const actionEvent = (action: object) =>
    ({
      id: '44444444-4444-4444-8444-444444444444',
      type: 'portfolio_wallet.risk.action.status_changed',
      orgId: 'org_a',
      source: 'risk',
      occurredAt: new Date(0).toISOString(),
      payload: {
        event: 'portfolio_wallet.risk.action.status_changed',
        observedAt: new Date(0).toISOString(),
        walletId: ids.wallet,
        action: {
          id: ids.action,
          organizationId: 'org_a',
          portfolioWalletId: ids.wallet,
          riskAlertId: ids.alert,
          yieldSourceId: JAAA,
          ...action,
        },
      },
    }) as never;
  const expected = { actionId: ids.action, orgId: 'org_a', walletId: ids.wallet, yieldSourceId: JAAA, riskAlertId: ids.alert };

  it('blocks on executed, unblocks on rejected, exits on executing; ignores other statuses', () => {
    expect(riskEffectOf(actionEvent({ outcome: 'prevent_additional_allocation', status: 'executed' }))).toEqual({
      kind: 'block',
      action: expected,
    });
    expect(riskEffectOf(actionEvent({ outcome: 'prevent_additional_allocation', status: 'rejected' }))).toEqual({
      kind: 'unblock',
      action: expected,
    });
    expect(riskEffectOf(actionEvent({ action: 'block_rebalance_buy', status: 'executed' }))).toEqual({ kind: 'block', action: expected });
    expect(riskEffectOf(actionEvent({ outcome: 'exit_position', status: 'executing' }))).toEqual({ kind: 'exit', action: expected });
    expect(riskEffectOf(actionEvent({ action: 'auto_rebalance_out', status: 'executing' }))).toEqual({ kind: 'exit', action: expected });
    for (const status of ['pending_approval', 'pending_auto_execution', 'failed'])
      expect(riskEffectOf(actionEvent({ outcome: 'prevent_additional_allocation', status }))).toEqual({ kind: 'none' });
    expect(riskEffectOf(actionEvent({ outcome: 'exit_position', status: 'executed' }))).toEqual({ kind: 'none' });
    expect(riskEffectOf(actionEvent({ outcome: 'alert', status: 'executed' }))).toEqual({ kind: 'none' });
  });

  it('calls an action without its ids malformed', () => {
    expect(riskEffectOf(actionEvent({ outcome: 'exit_position', status: 'executing', riskAlertId: 'x' }))).toMatchObject({
      kind: 'malformed',
    });
  });
});

describe('exitRemainder', () => {
  const row = (positionId: string, amount: bigint, reserved = 0n): PositionRow => ({
    positionId,
    kind: positionId === CASH ? 'cash' : 'yield_source',
    amount,
    reserved,
    earned: 0n,
    accruedAt: new Date(0),
  });

  it('sweeps what the source earned while the exit ran to the group’s cash', () => {
    const ledger = Ledger.fromRows('w', [row(JAAA, 37n), row(CASH, usd(10))]);
    expect(exitRemainder(ledger, JAAA, env)).toEqual({ from: JAAA, to: CASH, amount: 37n });
  });

  it('moves nothing when the source is empty, or what is left there is held by another workflow', () => {
    expect(exitRemainder(Ledger.fromRows('w', [row(JAAA, 0n)]), JAAA, env)).toBeUndefined();
    expect(exitRemainder(Ledger.fromRows('w', [row(JAAA, usd(5), usd(5))]), JAAA, env)).toBeUndefined();
    expect(exitRemainder(Ledger.fromRows('w', []), JAAA, env)).toBeUndefined();
  });
});
