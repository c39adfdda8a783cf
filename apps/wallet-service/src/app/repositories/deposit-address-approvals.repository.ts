import type { DepositAddressApproval } from '../../generated/prisma/client.js';
import { approvalView } from '../domain/deposit-address-view.js';
import type { Tx } from './db.js';
import { emitWalletEvent } from './events.repository.js';

function announceApproval(tx: Tx, row: DepositAddressApproval, now: Date): Promise<string> {
  return emitWalletEvent(tx, { orgId: row.orgId, walletId: row.walletId, observedAt: now }, 'portfolio_wallet.approval.status_changed', {
    approval: approvalView(row),
  });
}

export function findSetup(tx: Tx, walletId: string, chain: string): Promise<DepositAddressApproval | null> {
  return tx.depositAddressApproval.findUnique({ where: { walletId_chain: { walletId, chain } } });
}

/**
 * The setup of a chain's deposit address waiting for its approvers' activity until `dueAt`
 * (`pending`): a new row, or the row of an earlier attempt that was rejected or failed. Announced.
 */
export async function startSetup(
  tx: Tx,
  input: { id: string; wallet: { id: string; orgId: string }; chain: string; activityId: string; dueAt: Date; now: Date; existing: DepositAddressApproval | null },
): Promise<DepositAddressApproval> {
  const { id, wallet, chain, activityId, dueAt, now, existing } = input;
  const row = existing
    ? await tx.depositAddressApproval.update({ where: { id: existing.id }, data: { status: 'pending', activityId, dueAt, updatedAt: now } })
    : await tx.depositAddressApproval.create({ data: { id, walletId: wallet.id, orgId: wallet.orgId, chain, status: 'pending', activityId, dueAt, createdAt: now, updatedAt: now } });
  await announceApproval(tx, row, now);
  return row;
}

/** `pending` -> `approved`, `rejected` or `failed`, announced. */
export async function setSetupStatus(tx: Tx, setupId: string, status: 'approved' | 'rejected' | 'failed', now: Date): Promise<DepositAddressApproval> {
  const row = await tx.depositAddressApproval.update({ where: { id: setupId }, data: { status, updatedAt: now } });
  await announceApproval(tx, row, now);
  return row;
}

export function getApproval(tx: Tx, approvalId: string): Promise<DepositAddressApproval> {
  return tx.depositAddressApproval.findUniqueOrThrow({ where: { id: approvalId } });
}

