import { ServiceError } from '@service/errors';
import type { KeysetPage } from '@service/pagination';
import type { Deposit } from '../../generated/prisma/client.js';
import type { ListWhere } from '../domain/list-filters.js';
import type { Tx } from './db.js';
import type { WalletTx } from './wallet-sql.js';
import type { WalletEvent } from '../domain/wallet-events.js';
import { Writes } from './writes.js';

/** A new deposit (in `processing`) with the events its caller announces it with: one statement. */
export async function createDeposit(tx: WalletTx, row: Deposit, events: readonly WalletEvent[]): Promise<void> {
  const writes = new Writes();
  const { bind } = writes;
  writes.add(
    `INSERT INTO deposits (id, wallet_id, org_id, amount, token, chain, from_address, tx_hash, status, settle_at, created_at)
     VALUES (${bind(row.id, '::uuid')}, ${bind(row.walletId, '::uuid')}, ${bind(row.orgId, '::text')}, ${bind(row.amount.toString(), '::bigint')}, ${bind(row.token, '::text')},
             ${bind(row.chain, '::text')}, ${bind(row.fromAddress, '::text')}, ${bind(row.txHash, '::text')}, ${bind(row.status, '::text')}, ${bind(row.settleAt.toISOString(), '::timestamptz')},
             ${bind(row.createdAt.toISOString(), '::timestamptz')})`,
  );
  for (const event of events) writes.addEvent(event);
  await writes.run(tx);
}

/**
 * `processing` -> `completed`, as part of the statement's `writes` (the caller adds the money
 * that landed first); the row as written.
 */
export function addCompleteDeposit(writes: Writes, row: Deposit, now: Date): Deposit {
  const completed: Deposit = { ...row, status: 'completed', completedAt: now };
  const { bind } = writes;
  writes.add(
    `UPDATE deposits SET status = 'completed', completed_at = ${bind(now.toISOString(), '::timestamptz')} WHERE id = ${bind(row.id, '::uuid')}`,
  );
  return completed;
}

export function listDeposits(db: Tx, walletId: string, filters: ListWhere, page: KeysetPage): Promise<Deposit[]> {
  return db.deposit.findMany(page.findArgs({ walletId, ...filters }));
}

/** The wallet's deposit; `deposit_not_found` otherwise. */
export async function findDeposit(db: Tx, walletId: string, depositId: string): Promise<Deposit> {
  const row = await db.deposit.findFirst({ where: { id: depositId, walletId } });
  if (!row) throw new ServiceError('deposit_not_found', `Deposit ${depositId} was not found.`);
  return row;
}

/** The wallet's deposit with this transaction id (on `chain`, when given); `deposit_not_found` otherwise. */
export async function findDepositByTxHash(db: Tx, walletId: string, txHash: string, chain: string | undefined): Promise<Deposit> {
  const row = await db.deposit.findFirst({ where: { walletId, txHash, ...(chain === undefined ? {} : { chain }) } });
  if (!row)
    throw new ServiceError(
      'deposit_not_found',
      `No deposit of this wallet has transaction ${txHash}${chain === undefined ? '' : ` on ${chain}`}.`,
    );
  return row;
}

/** A deposit by id. */
export async function getDeposit(tx: WalletTx, depositId: string): Promise<Deposit> {
  const [row] = await tx.$queryRawUnsafe<(Omit<Deposit, 'amount'> & { amount: string })[]>(
    `SELECT id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", amount::text AS amount, token, chain, from_address AS "fromAddress",
            tx_hash AS "txHash", status, settle_at AS "settleAt", created_at AS "createdAt", completed_at AS "completedAt"
       FROM deposits WHERE id = $1::uuid`,
    depositId,
  );
  if (!row) throw new Error(`deposit ${depositId} not found`);
  return { ...row, amount: BigInt(row.amount) };
}
