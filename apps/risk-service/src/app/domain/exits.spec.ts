import { describe, expect, it } from '@jest/globals';
import type { RebalanceObject } from '@service/contracts';
import { exitProgressOf } from './exits.js';

const rebalance = (status: RebalanceObject['status'], completedAt: string | null = null): RebalanceObject => ({
  id: '00000000-0000-4000-8000-0000000000aa',
  requestId: '00000000-0000-4000-8000-0000000000bb',
  status,
  allocations: [
    { from: 'service-ustb-vault', to: 'service-jaaa-usdc-vault', amountUsd: '600.000001' },
    { from: 'service-ustb-vault', to: 'cash:ethereum_sepolia:usdc', amountUsd: '400.000000' },
    { from: 'cash:ethereum_sepolia:usdc', to: 'service-jaaa-usdc-vault', amountUsd: '5.000000' },
  ],
  createdAt: '2026-11-28T12:00:00.000Z',
  completedAt,
});
const at = new Date('2026-11-28T12:05:00.000Z');

describe('exit progress from the rebalance running the exit', () => {
  it('is running while created or processing', () => {
    expect(exitProgressOf(rebalance('created'), 'service-ustb-vault', at)).toEqual({
      kind: 'running',
      rebalanceId: rebalance('created').id,
    });
    expect(exitProgressOf(rebalance('processing'), 'service-ustb-vault', at).kind).toBe('running');
  });

  it('completes with every dollar moved out of the source', () => {
    expect(exitProgressOf(rebalance('completed', '2026-11-28T12:04:00.000Z'), 'service-ustb-vault', at)).toEqual({
      kind: 'completed',
      rebalanceId: rebalance('completed').id,
      amountUsd: '1000.000001',
      completedAt: new Date('2026-11-28T12:04:00.000Z'),
    });
    expect(exitProgressOf(rebalance('completed'), 'service-ustb-vault', at)).toMatchObject({ completedAt: at });
  });

  it('fails when the rebalance failed or was cancelled', () => {
    expect(exitProgressOf(rebalance('failed'), 'service-ustb-vault', at)).toMatchObject({
      kind: 'failed',
      executionError: { code: 'rebalance_failed' },
    });
    expect(exitProgressOf(rebalance('cancelled'), 'service-ustb-vault', at)).toMatchObject({
      executionError: { code: 'rebalance_cancelled' },
    });
  });
});
