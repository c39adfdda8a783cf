import { ServiceError } from '@service/errors';
import type { Wallet } from '../../generated/prisma/client.js';
import type { Tx } from './db.js';

export const walletNotFound = (id: string) => new ServiceError('wallet_not_found', `Wallet ${id} was not found.`);

/**
 * Locks the organization's wallet row for the rest of the transaction: every change to a wallet's
 * positions, deposits or rebalances happens under this lock, so they apply one at a time.
 */
export async function lockWallet(tx: Tx, orgId: string, walletId: string): Promise<Wallet> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM wallets WHERE id = ${walletId}::uuid AND org_id = ${orgId} FOR UPDATE`;
  if (locked.length === 0) throw walletNotFound(walletId);
  return tx.wallet.findUniqueOrThrow({ where: { id: walletId } });
}
