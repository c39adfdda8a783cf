import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ServiceError } from '@service/errors';
import { KeysetPage, NewestFirst } from '@service/pagination';
import { prismaQueriesFileDifferences, RecordingPrisma, type SqlFileEntry } from '@service/testing';
import { PrismaClient } from '../generated/prisma/client.js';
import { listFiltersOf } from '../app/domain/list-filters.js';
import { listEntries } from '../app/repositories/address-book.repository.js';
import { findPolicy, listApprovers, listAudit, listPendingActivities } from '../app/repositories/approvals.repository.js';
import { findDeposit, findDepositByTxHash, listDeposits } from '../app/repositories/deposits.repository.js';
import { armPayoutFailure } from '../app/repositories/sandbox-payout-failures.repository.js';
import { requireWallet, updateLabel } from '../app/repositories/wallets.repository.js';
import { listWithdrawals } from '../app/repositories/withdrawals.repository.js';

/**
 * The statements wallet-service runs through Prisma's model API, as text: each repository function
 * that uses it is called with representative inputs on the service's Prisma client over a freshly
 * migrated schema, what Prisma sent (its query events) is compared with
 * `src/queries/prisma/<module>.sql` (`UPDATE_SQL=1` writes the files), and the schema is dropped.
 * The raw statements (`lockApprovals`' tagged template too) are `queries.spec.ts`'s, in
 * `src/queries/<module>.sql`.
 */
let prisma: RecordingPrisma<PrismaClient>;
const ran = (call: string, work: () => Promise<unknown>) => prisma.entry(call, work);
/** `work`, which ends with a `..._not_found` ServiceError on the empty schema: its statements are those of a found row. */
const notFound = (work: () => Promise<unknown>) => async () => {
  await work().then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (error: unknown) => {
      if (!(error instanceof ServiceError)) throw error;
    },
  );
};

beforeAll(async () => {
  prisma = await RecordingPrisma.start('wallet-service', (options) => new PrismaClient(options));
});

afterAll(async () => {
  await prisma?.stop();
});

const ORG = 'org_a';
const WALLET = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const DEPOSIT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const TX_HASH = `0x${'ab'.repeat(32)}`;
const NOW = new Date('2026-11-21T10:00:00.000Z');
const AFTER = { createdAt: new Date('2026-11-20T10:00:00.000Z'), id: '3f6c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' };

/** A first page and a page after a cursor of a newest-first list without filters. */
function newestFirst(list: string): { first: NewestFirst; next: NewestFirst } {
  const first = new NewestFirst(list, {}, { limit: 2 });
  return { first, next: new NewestFirst(list, {}, { cursor: first.cursorOf(AFTER), limit: 2 }) };
}

/**
 * A wallet's list (deposits, withdrawals) in its two shapes: no filters, the first page newest
 * first; and every filter (`status`, `createdAtGte`), a page after a cursor, oldest first.
 */
function walletList(list: string) {
  const plain = listFiltersOf({}, { walletId: WALLET });
  const filtered = listFiltersOf(
    { status: ['completed', 'processing'], createdAtGte: '2026-11-01T00:00:00.000Z', order: 'asc' },
    { walletId: WALLET },
  );
  const cursor = new KeysetPage(list, filtered.bound, {}, { order: filtered.order }).cursorOf(AFTER);
  return {
    plain: { where: plain.where, page: new KeysetPage(list, plain.bound, { limit: 2 }, { order: plain.order }) },
    filtered: { where: filtered.where, page: new KeysetPage(list, filtered.bound, { cursor, limit: 2 }, { order: filtered.order }) },
  };
}

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'address-book.repository': async () => {
    const { first, next } = newestFirst('address-book');
    return [
      await ran('listEntries(db, orgId, the first page, limit 2)', () => listEntries(prisma.client as never, ORG, first)),
      await ran('listEntries(db, orgId, a page after a cursor, limit 2)', () => listEntries(prisma.client as never, ORG, next)),
    ];
  },
  'approvals.repository': async () => {
    const approvers = newestFirst('approvers');
    const audit = newestFirst('approval-audit');
    return [
      await ran('listApprovers(db, orgId, the first page, limit 2)', () => listApprovers(prisma.client as never, ORG, approvers.first)),
      await ran('listApprovers(db, orgId, a page after a cursor, limit 2)', () =>
        listApprovers(prisma.client as never, ORG, approvers.next),
      ),
      await ran('findPolicy(db, orgId)', () => findPolicy(prisma.client as never, ORG)),
      await ran('listAudit(db, orgId, the first page, limit 2)', () => listAudit(prisma.client as never, ORG, audit.first)),
      await ran('listAudit(db, orgId, a page after a cursor, limit 2)', () => listAudit(prisma.client as never, ORG, audit.next)),
      await ran('listPendingActivities(db, orgId, now)', () => listPendingActivities(prisma.client as never, ORG, NOW)),
    ];
  },
  'deposits.repository': async () => {
    const { plain, filtered } = walletList('deposits');
    return [
      await ran('listDeposits(db, walletId, no filters, the first page newest first, limit 2)', () =>
        listDeposits(prisma.client as never, WALLET, plain.where, plain.page),
      ),
      await ran('listDeposits(db, walletId, {status, createdAt}, a page after a cursor oldest first, limit 2)', () =>
        listDeposits(prisma.client as never, WALLET, filtered.where, filtered.page),
      ),
      await ran(
        'findDeposit(db, walletId, depositId)',
        notFound(() => findDeposit(prisma.client as never, WALLET, DEPOSIT)),
      ),
      await ran(
        'findDepositByTxHash(db, walletId, txHash, chain)',
        notFound(() => findDepositByTxHash(prisma.client as never, WALLET, TX_HASH, 'ethereum-sepolia')),
      ),
      await ran(
        'findDepositByTxHash(db, walletId, txHash, no chain)',
        notFound(() => findDepositByTxHash(prisma.client as never, WALLET, TX_HASH, undefined)),
      ),
    ];
  },
  'sandbox-payout-failures.repository': async () => [
    await ran('armPayoutFailure(db, orgId, now), not armed yet', () => armPayoutFailure(prisma.client as never, ORG, NOW)),
    await ran('armPayoutFailure(db, orgId, now), armed already', () => armPayoutFailure(prisma.client as never, ORG, NOW)),
  ],
  'wallets.repository': async () => [
    await ran(
      'requireWallet(db, orgId, walletId)',
      notFound(() => requireWallet(prisma.client as never, ORG, WALLET)),
    ),
    await ran(
      'updateLabel(db, orgId, walletId, label)',
      notFound(() => updateLabel(prisma.client as never, ORG, WALLET, 'treasury')),
    ),
  ],
  'withdrawals.repository': async () => {
    const { plain, filtered } = walletList('withdrawals');
    return [
      await ran('listWithdrawals(db, walletId, no filters, the first page newest first, limit 2)', () =>
        listWithdrawals(prisma.client as never, WALLET, plain.where, plain.page),
      ),
      await ran('listWithdrawals(db, walletId, {status, createdAt}, a page after a cursor oldest first, limit 2)', () =>
        listWithdrawals(prisma.client as never, WALLET, filtered.where, filtered.page),
      ),
    ];
  },
};

describe('the statements wallet-service runs through Prisma, as text in src/queries/prisma', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    const dir = fileURLToPath(new URL('./prisma/', import.meta.url));
    expect(await prismaQueriesFileDifferences(dir, 'src/queries/prisma.int.spec.ts', prisma, files)).toEqual([]);
  });
});
