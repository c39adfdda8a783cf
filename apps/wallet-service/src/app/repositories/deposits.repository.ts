import { ServiceError } from '@service/errors';
import type { KeysetPage } from '@service/pagination';
import type { Deposit } from '../../generated/prisma/client.js';
import { depositView } from '../domain/deposit-view.js';
import type { ListWhere } from '../domain/list-filters.js';
import type { Tx } from './db.js';
import { emitWalletEvent } from './events.repository.js';

type NewDeposit = Pick<Deposit, 'id' | 'walletId' | 'orgId' | 'amount' | 'token' | 'chain' | 'fromAddress' | 'txHash' | 'settleAt' | 'createdAt'>;

export function announceDeposit(tx: Tx, row: Deposit, observedAt: Date): Promise<string> {
  return emitWalletEvent(tx, { orgId: row.orgId, walletId: row.walletId, observedAt }, 'portfolio_wallet.deposit.status_changed', {
    deposit: depositView(row),
  });
}

/** A deposit in `processing`, announced. */
export async function createDeposit(tx: Tx, deposit: NewDeposit): Promise<Deposit> {
  const row = await tx.deposit.create({ data: { ...deposit, status: 'processing' } });
  await announceDeposit(tx, row, deposit.createdAt);
  return row;
}

/** `processing` -> `completed` (announced by the caller once the money has landed). */
export function completeDeposit(tx: Tx, depositId: string, now: Date): Promise<Deposit> {
  return tx.deposit.update({ where: { id: depositId }, data: { status: 'completed', completedAt: now } });
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
  if (!row) throw new ServiceError('deposit_not_found', `No deposit of this wallet has transaction ${txHash}${chain === undefined ? '' : ` on ${chain}`}.`);
  return row;
}

export function getDeposit(tx: Tx, depositId: string): Promise<Deposit> {
  return tx.deposit.findUniqueOrThrow({ where: { id: depositId } });
}

/** Deposits whose settlement time has come. */
export function findDueDeposits(db: Tx, now: Date, take: number): Promise<{ id: string; orgId: string; walletId: string }[]> {
  return db.deposit.findMany({
    where: { status: 'processing', settleAt: { lte: now } },
    select: { id: true, orgId: true, walletId: true },
    take,
  });
}
