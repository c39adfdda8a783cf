import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { checkColumnLists } from '@service/testing';

const NOT_READ = 'a filter key, not read';
const AS_EPOCH_MS = 'read as epoch milliseconds (an expression)';

/** Every hand-written column list of the service's SQL against prisma/schema.prisma (`checkColumnLists`, libs/testing). */
const report = checkColumnLists(fileURLToPath(new URL('../../..', import.meta.url)), {
  complete: [
    // Row types read with SELECT: every column of the model.
    {
      file: 'app/repositories/wallets.repository.ts',
      kind: 'select',
      table: 'wallets',
      except: { created_at: AS_EPOCH_MS, updated_at: AS_EPOCH_MS },
    },
    { file: 'app/repositories/idempotency-keys.repository.ts', kind: 'select', table: 'wallets' },
    { file: 'app/repositories/withdrawals.repository.ts', kind: 'select', table: 'withdrawals' },
    { file: 'app/repositories/deposits.repository.ts', kind: 'select', table: 'deposits' },
    { file: 'app/repositories/deposit-address-approvals.repository.ts', kind: 'select', table: 'deposit_address_approvals' },
    { file: 'app/repositories/approvals.repository.ts', kind: 'select', table: 'approvers' },
    { file: 'app/repositories/approvals.repository.ts', kind: 'select', table: 'approval_activities' },
    { file: 'app/repositories/approvals.repository.ts', kind: 'select', table: 'approval_votes' },
    { file: 'app/repositories/approvals.repository.ts', kind: 'select', table: 'approval_policies', except: { org_id: NOT_READ } },
    { file: 'app/repositories/withdrawals.repository.ts', kind: 'select', table: 'approval_policies', except: { org_id: NOT_READ } },
    // `ledgerQuery` and `positionsJson`: a position's every column but its wallet's.
    { file: 'app/repositories/positions.repository.ts', kind: 'select', table: 'positions', every: true, except: { wallet_id: NOT_READ } },
    { file: 'app/repositories/positions.repository.ts', kind: 'insert', table: 'positions' },
    { file: 'app/repositories/market-figures.repository.ts', kind: 'select', table: 'market_figures' },
    { file: 'app/repositories/market-figures.repository.ts', kind: 'insert', table: 'market_figures' },
  ],
  // The withdrawal's read carries its wallet's approval policy beside it, prefixed.
  renames: ['withdrawals AS policyWithdrawals', 'threshold AS policyThreshold', 'quorum AS policyQuorum', 'updated_at AS policyUpdatedAt'],
});

describe('column lists of the SQL of wallet-service', () => {
  it('are found (WALLET_COLUMNS, WITHDRAWAL_COLUMNS, runningColumns, positionsJson, every INSERT and UPDATE)', () => {
    const found = new Set(report.lists.map((list) => `${list.kind} ${list.table}`));
    for (const list of [
      'select wallets',
      'select withdrawals',
      'select rebalances',
      'select positions',
      'insert withdrawals',
      'insert positions',
      'update wallets',
    ])
      expect(found).toContain(list);
  });

  it('name only columns of the Prisma models, read under the models’ field names', () => {
    expect(report.unknown).toEqual([]);
  });

  it('that stand for a whole row name every column of its model', () => {
    expect(report.missing).toEqual([]);
  });
});
