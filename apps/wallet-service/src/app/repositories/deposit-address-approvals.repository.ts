import { randomUUID } from 'node:crypto';
import type { DepositAddressApproval } from '../../generated/prisma/client.js';
import { approvalView } from '../domain/deposit-address-view.js';
import type { Tx } from './db.js';
import { emitWalletEvent } from './events.repository.js';

function announceApproval(tx: Tx, row: DepositAddressApproval, now: Date): Promise<string> {
  return emitWalletEvent(tx, { orgId: row.orgId, walletId: row.walletId, observedAt: now }, 'portfolio_wallet.approval.status_changed', {
    approval: approvalView(row),
  });
}

/** Starts the one-time setup of a chain's deposit address (`pending`), or returns the one already started. */
export async function startApproval(
  tx: Tx,
  input: { wallet: { id: string; orgId: string }; chain: string; dueAt: Date; now: Date },
): Promise<DepositAddressApproval> {
  const { wallet, chain, now } = input;
  const existing = await tx.depositAddressApproval.findUnique({ where: { walletId_chain: { walletId: wallet.id, chain } } });
  if (existing) return existing;
  const row = await tx.depositAddressApproval.create({
    data: { id: randomUUID(), walletId: wallet.id, orgId: wallet.orgId, chain, status: 'pending', dueAt: input.dueAt, createdAt: now, updatedAt: now },
  });
  await announceApproval(tx, row, now);
  return row;
}

/** `pending` -> `approved`, announced. */
export async function approve(tx: Tx, approvalId: string, now: Date): Promise<void> {
  const approved = await tx.depositAddressApproval.update({ where: { id: approvalId }, data: { status: 'approved', updatedAt: now } });
  await announceApproval(tx, approved, now);
}

export function getApproval(tx: Tx, approvalId: string): Promise<DepositAddressApproval> {
  return tx.depositAddressApproval.findUniqueOrThrow({ where: { id: approvalId } });
}

/** Setups whose approval time has come. */
export function findDueApprovals(db: Tx, now: Date, take: number): Promise<{ id: string; orgId: string; walletId: string }[]> {
  return db.depositAddressApproval.findMany({
    where: { status: 'pending', dueAt: { lte: now } },
    select: { id: true, orgId: true, walletId: true },
    take,
  });
}
