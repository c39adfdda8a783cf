import { describe, expect, it } from '@jest/globals';
import { DOMAIN_EVENT_TYPES, type DomainEvent } from '@service/contracts';
import { PROJECTED_EVENTS, PROJECTED_EVENTS_FILTER, projectEvent, publicStatus, statusRank, toActivityItem } from './activity-item.js';

const WALLET = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const ID = '0e0c6a3b-7d1f-4a58-9b6e-3c2d1e0f9a88';

function event(type: string, payload: object): DomainEvent {
  return {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    type: type as never,
    orgId: 'org_a',
    source: 'wallet',
    occurredAt: '2026-11-21T10:00:01.000Z',
    payload,
  };
}

const deposit = {
  id: ID,
  amount: '12.500000',
  token: 'usdc',
  chain: 'ethereum_sepolia',
  fromAddress: '0xabc',
  txHash: '0xdef',
  status: 'processing',
  createdAt: '2026-11-21T10:00:00.000Z',
  completedAt: null,
  internal: 'not shown',
};

describe('projectEvent', () => {
  it('projects a deposit event into an item keyed by the deposit id, with only the spec fields nested', () => {
    const projection = projectEvent(
      event('portfolio_wallet.deposit.status_changed', { event: 'x', observedAt: '2026-11-21T10:00:02.000Z', walletId: WALLET, deposit }),
    );
    expect(projection.kind).toBe('item');
    if (projection.kind !== 'item') return;
    expect(projection.item).toMatchObject({
      id: ID,
      walletId: WALLET,
      type: 'deposit',
      status: 'processing',
      statusRank: 1,
      amountMicros: 12_500_000n,
      orgId: 'org_a',
    });
    expect(projection.item.timestamp.toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(projection.item.observedAt.toISOString()).toBe('2026-11-21T10:00:02.000Z');
    expect(Object.keys(projection.item.resource)).not.toContain('internal');
  });

  it('sums the allocations of a rebalance as its amount', () => {
    const rebalance = {
      id: ID,
      requestId: WALLET,
      status: 'created',
      allocations: [
        { from: 'cash:ethereum_sepolia:usdc', to: 'service-jaaa-usdc-vault', amountUsd: '10.000001' },
        { from: 'service-jaaa-usdc-vault', to: 'cash:ethereum_sepolia:usdc', amountUsd: '2.500000' },
      ],
      createdAt: '2026-11-21T10:00:00.000Z',
      completedAt: null,
    };
    const projection = projectEvent(event('portfolio_wallet.rebalance.status_changed', { walletId: WALLET, rebalance }));
    expect(projection).toMatchObject({
      kind: 'item',
      item: { type: 'rebalance', status: 'created', statusRank: 0, amountMicros: 12_500_001n },
    });
  });

  it('ignores wallet events the feed does not show', () => {
    expect(projectEvent(event('portfolio_wallet.balance.updated', { walletId: WALLET }))).toEqual({ kind: 'ignored' });
  });

  it('reports a payload it cannot read as malformed instead of throwing', () => {
    const bad = projectEvent(event('portfolio_wallet.deposit.status_changed', { walletId: 'nope', deposit }));
    expect(bad).toEqual({ kind: 'malformed', reason: 'walletId is not a UUID' });
    expect(
      projectEvent(event('portfolio_wallet.deposit.status_changed', { walletId: WALLET, deposit: { ...deposit, amount: 'x' } })).kind,
    ).toBe('malformed');
  });
});

describe('PROJECTED_EVENTS_FILTER', () => {
  /** NATS subject matching: `*` is one token, `>` the rest. */
  const matches = (filter: string, subject: string): boolean => {
    const [want, got] = [filter.split('.'), subject.split('.')];
    for (const [index, token] of want.entries()) {
      if (token === '>') return got.length > index;
      if (got[index] === undefined || (token !== '*' && token !== got[index])) return false;
    }
    return want.length === got.length;
  };

  it('lets through every projected type, and of the others only the few of the same shape', () => {
    const delivered = DOMAIN_EVENT_TYPES.filter((type) => matches(PROJECTED_EVENTS_FILTER, type));
    expect(delivered).toEqual(expect.arrayContaining(Object.keys(PROJECTED_EVENTS)));
    // What an allocation or a withdrawal announces besides its own status is not delivered.
    for (const type of [
      'portfolio_wallet.position.updated',
      'portfolio_wallet.balance.updated',
      'portfolio_wallet.status_changed',
      'portfolio_wallet.withdrawal.payout.status_changed',
    ]) {
      expect(DOMAIN_EVENT_TYPES).toContain(type);
      expect(delivered).not.toContain(type);
    }
  });
});

describe('statuses', () => {
  it('passes public statuses through and shows intermediate ones as processing', () => {
    expect(publicStatus('completed')).toBe('completed');
    expect(publicStatus('pending_customer_approval')).toBe('processing');
  });

  it('ranks created below processing below every final status', () => {
    expect([
      statusRank('created'),
      statusRank('processing'),
      statusRank('completed'),
      statusRank('partially_completed'),
      statusRank('failed'),
      statusRank('cancelled'),
    ]).toEqual([0, 1, 2, 2, 2, 2]);
    // A withdrawal some of whose legs delivered is final and named as such, not shown as processing.
    expect(publicStatus('partially_completed')).toBe('partially_completed');
  });
});

describe('toActivityItem', () => {
  it('nests the resource under its type and formats the amount with six decimals', () => {
    const item = toActivityItem({
      id: ID,
      wallet_id: WALLET,
      type: 'deposit',
      status: 'completed',
      amount_usd: '12500000',
      timestamp_iso: '2026-11-21T10:00:00.000Z',
      resource: { id: ID },
    });
    expect(item).toEqual({
      id: ID,
      type: 'deposit',
      status: 'completed',
      amountUsd: '12.500000',
      timestamp: '2026-11-21T10:00:00.000Z',
      walletId: WALLET,
      deposit: { id: ID },
    });
  });
});
