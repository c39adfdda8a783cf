import { describe, expect, it } from '@jest/globals';
import type { PayoutLeg } from '@service/contracts';
import { Catalogue } from './catalogue/catalogue.js';
import { advanceLeg, restartLeg, settledStatus, skipLeg } from './payout-legs.js';
import { drawAmounts, newLeg } from './payout-plan.js';
import { checkLimit, parseWithdrawalPolicies, policyOf } from './withdrawal-policy.js';
import { processingEstimate, secondsDuration } from './processing-estimate.js';

const catalogue = new Catalogue('sandbox');
const destination = { chain: 'solana_devnet', token: 'usdc', address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' };
const now = new Date('2026-11-21T10:00:00.000Z');

describe('drawAmounts', () => {
  it('draws cash on the destination chain first, then other cash, then the largest yield source', () => {
    const sources = [
      { positionId: 'service-ustb-vault', available: 30_000_000n },
      { positionId: 'service-jaaa-usdc-vault', available: 50_000_000n },
      { positionId: 'cash:ethereum_sepolia:usdc', available: 10_000_000n },
      { positionId: 'cash:solana_devnet:usdc', available: 5_000_000n },
    ];
    expect(drawAmounts(sources, destination, 80_000_000n)).toEqual([
      { positionId: 'cash:solana_devnet:usdc', amount: 5_000_000n },
      { positionId: 'cash:ethereum_sepolia:usdc', amount: 10_000_000n },
      { positionId: 'service-jaaa-usdc-vault', amount: 50_000_000n },
      { positionId: 'service-ustb-vault', amount: 15_000_000n },
    ]);
  });

  it('touches only what the amount needs and skips empty positions', () => {
    const sources = [
      { positionId: 'cash:ethereum_sepolia:usdc', available: 0n },
      { positionId: 'service-jaaa-usdc-vault', available: 50_000_000n },
    ];
    expect(drawAmounts(sources, destination, 1_000_000n)).toEqual([{ positionId: 'service-jaaa-usdc-vault', amount: 1_000_000n }]);
  });
});

describe('payout legs', () => {
  const chains = ['ethereum_sepolia', 'solana_devnet'];
  const LEG_ID = '00000000-0000-4000-8000-000000000001';

  it('redeems then transfers a yield-source leg, one stage at a time, with confirmed transactions', () => {
    const leg: PayoutLeg = newLeg(LEG_ID, { positionId: 'service-jaaa-usdc-vault', amount: 7_000_000n }, destination, catalogue, now);
    expect(leg).toMatchObject({
      id: LEG_ID,
      status: 'planning',
      amountUsd: '7.000000',
      from: { kind: 'yield_source', id: 'service-jaaa-usdc-vault', label: 'Anemoy AAA CLO Fund (JAAA), USDC' },
      to: { kind: 'external_payout', id: destination.address, label: 'USDC on Solana Devnet' },
      startedAt: now.toISOString(),
      completedAt: null,
      stepsCompleted: 0,
      stepsTotal: 2,
    });
    leg.status = 'pending_broadcast';
    const seen: string[] = [];
    for (;;) {
      const change = advanceLeg(leg, { chains, fails: false, now });
      if (change === 'none') break;
      seen.push(leg.status);
    }
    expect(seen).toEqual(['broadcasted', 'processing', 'completed']);
    expect(leg.stepsCompleted).toBe(2);
    expect(leg.steps.map((step) => [step.status, step.txStatus])).toEqual([
      ['completed', 'confirmed'],
      ['completed', 'confirmed'],
    ]);
    expect(leg.steps[0]?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(leg.steps[1]?.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
  });

  it('fails a leg meant to fail at its first confirmation, and skips cancelled ones', () => {
    const leg = newLeg(LEG_ID, { positionId: 'cash:ethereum_sepolia:usdc', amount: 1n }, destination, catalogue, now);
    leg.status = 'pending_broadcast';
    expect(advanceLeg(leg, { chains: ['solana_devnet'], fails: true, now })).toBe('moved');
    expect(advanceLeg(leg, { chains: ['solana_devnet'], fails: true, now })).toBe('failed');
    expect(leg.steps[0]).toMatchObject({ status: 'failed', txStatus: 'failed' });
    const other = newLeg(LEG_ID, { positionId: 'cash:ethereum_sepolia:usdc', amount: 1n }, destination, catalogue, now);
    skipLeg(other, now);
    expect(other).toMatchObject({ status: 'skipped', completedAt: now.toISOString(), steps: [{ status: 'skipped' }] });
    restartLeg(leg, now);
    expect(leg).toMatchObject({
      id: LEG_ID,
      status: 'planning',
      completedAt: null,
      stepsCompleted: 0,
      steps: [{ status: 'pending', txHash: null, txStatus: null }],
    });
  });

  it('settles a withdrawal by what its legs did: delivered, partly, failed or cancelled', () => {
    const legs = (...statuses: string[]) => statuses.map((status) => ({ status }) as PayoutLeg);
    expect(settledStatus(legs('completed', 'completed'))).toBe('completed');
    expect(settledStatus(legs('completed', 'failed'))).toBe('partially_completed');
    expect(settledStatus(legs('completed', 'cancelled'))).toBe('partially_completed');
    expect(settledStatus(legs('failed', 'cancelled'))).toBe('failed');
    expect(settledStatus(legs('cancelled', 'cancelled'))).toBe('cancelled');
    expect(settledStatus(legs('completed', 'processing'))).toBeNull();
  });

  it.each([
    [['completed', 'skipped'], 'completed'],
    [['completed', 'failed'], 'partially_completed'],
    [['failed', 'failed'], 'failed'],
    [['completed', 'processing'], null],
  ])('settles legs %p as %p', (statuses, expected) => {
    expect(settledStatus(statuses.map((status) => ({ status }) as PayoutLeg))).toBe(expected);
  });
});

describe('withdrawal policy', () => {
  const policies = parseWithdrawalPolicies('{"*": {"limitUsd": "1000"}, "org_a": {"requireApproval": true, "requireWhitelist": true}}');

  it('layers the organization over "*" over the environment default', () => {
    expect(policyOf(policies, 'org_a', true)).toEqual({ requireApproval: true, requireWhitelist: true, limit: 1_000_000_000n });
    expect(policyOf(policies, 'org_b', true)).toEqual({ requireApproval: false, requireWhitelist: false, limit: 1_000_000_000n });
    expect(policyOf(new Map(), 'org_b', false)).toEqual({ requireApproval: true, requireWhitelist: false, limit: null });
  });

  it('refuses production withdrawals above the limit with withdrawal_policy_required, never in the sandbox', () => {
    const policy = policyOf(policies, 'org_b', false);
    expect(() => checkLimit(policy, 1_000_000_000n, false)).not.toThrow();
    expect(() => checkLimit(policy, 1_000_000_001n, false)).toThrow(
      expect.objectContaining({ code: 'withdrawal_policy_required' }) as never,
    );
    expect(() => checkLimit(policy, 1_000_000_001n, true)).not.toThrow();
  });

  it('rejects malformed configuration', () => {
    expect(() => parseWithdrawalPolicies('[]')).toThrow('must be a JSON object');
    expect(parseWithdrawalPolicies('').size).toBe(0);
    expect(() => parseWithdrawalPolicies('{"o": {"requireApproval": "yes"}}')).toThrow('o.requireApproval must be true or false');
  });
});

describe('processingEstimate', () => {
  it('is the slowest redemption drawn on as ISO 8601 durations, minutes for cash alone', () => {
    expect(processingEstimate(['cash:ethereum_sepolia:usdc'], catalogue)).toEqual({
      basis: 'elapsed_seconds',
      typicalMinDuration: 'PT1M',
      typicalMaxDuration: 'PT10M',
    });
    expect(processingEstimate(['cash:ethereum_sepolia:usdc', 'service-ustb-vault', 'service-jaaa-usdc-vault'], catalogue)).toEqual({
      basis: 'banking_days',
      typicalMinDuration: 'P1D',
      typicalMaxDuration: 'P3D',
    });
  });

  it('writes seconds in their largest exact units', () => {
    expect([0, 60, 1_260, 7_200, 5_400, 90, 90_000].map(secondsDuration)).toEqual([
      'PT0S',
      'PT1M',
      'PT21M',
      'PT2H',
      'PT1H30M',
      'PT1M30S',
      'PT25H',
    ]);
  });
});
