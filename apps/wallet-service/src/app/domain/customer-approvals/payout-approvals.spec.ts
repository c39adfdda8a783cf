import { describe, expect, it } from '@jest/globals';
import { Catalogue } from '../catalogue/catalogue.js';
import { approvalLapsed, awaitApproval, expireLeg, releaseLeg, restartLeg, settledStatus } from '../payout-legs.js';
import { newLeg } from '../payout-plan.js';
import { nextRunOf, settlementOf } from '../withdrawal-progress.js';
import { legView, type StoredLeg } from '../withdrawal-view.js';

const catalogue = new Catalogue('sandbox');
const destination = { chain: 'ethereum_sepolia', token: 'usdc', address: '0x52908400098527886E0F7030069857D2E4169EE7' };
const now = new Date('2026-11-24T08:00:00.000Z');
const HOUR = 3_600_000;

function parkedLeg(validBefore: Date): StoredLeg {
  const leg: StoredLeg = newLeg(
    '00000000-0000-4000-8000-000000000001',
    { positionId: 'cash:ethereum_sepolia:usdc', amount: 10_000_000n },
    destination,
    catalogue,
    now,
  );
  leg.status = 'pending_customer_approval';
  awaitApproval(leg, { id: '00000000-0000-4000-8000-0000000000aa', createdAt: now, validBefore });
  return leg;
}

describe('payout legs waiting for customer approval', () => {
  it('show their activity and deadline only while they wait', () => {
    const leg = parkedLeg(new Date(now.getTime() + HOUR));
    expect(legView(leg)).toMatchObject({
      turnkeyActivityId: '00000000-0000-4000-8000-0000000000aa',
      approvalRequestedAt: now.toISOString(),
      approvalValidBefore: new Date(now.getTime() + HOUR).toISOString(),
    });
    expect(leg.steps.map((step) => step.status)).toEqual(['pending_customer_approval']);
    releaseLeg(leg);
    expect(leg.steps.map((step) => step.status)).toEqual(['pending']);
    expect(legView(leg)).toMatchObject({
      status: 'pending_broadcast',
      turnkeyActivityId: null,
      approvalRequestedAt: null,
      approvalValidBefore: null,
    });
  });

  it('make the withdrawal look again at the earliest deadline rather than a day later', () => {
    const leg = parkedLeg(new Date(now.getTime() + HOUR));
    expect(nextRunOf([leg], now, 2_000)).toEqual(new Date(now.getTime() + HOUR));
    expect(nextRunOf([leg, { ...parkedLeg(new Date(now.getTime() + 60_000)), status: 'planning' }], now, 2_000)).toEqual(
      new Date(now.getTime() + 2_000),
    );
  });

  it('fail once the deadline passes, nothing sent, and the withdrawal says why', () => {
    const leg = parkedLeg(now);
    expect(approvalLapsed(leg, new Date(now.getTime() - 1))).toBe(false);
    expect(approvalLapsed(leg, now)).toBe(true);
    expireLeg(leg, now);
    expect(leg).toMatchObject({ status: 'failed', completedAt: now.toISOString(), approvalExpired: true });
    expect(leg.steps.every((step) => step.status === 'skipped')).toBe(true);
    expect(settledStatus([leg])).toBe('failed');
    expect(settlementOf([leg], 500_000n, 'failed')).toEqual({
      amountPaid: null,
      failureReason:
        'No payout leg delivered; 10.000000 USD stays in the wallet. Customer approval expired without quorum for USDC on Ethereum Sepolia.',
    });
    restartLeg(leg, now);
    expect(leg.approvalExpired).toBeUndefined();
  });
});
