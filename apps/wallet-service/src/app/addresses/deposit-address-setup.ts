import { randomUUID } from 'node:crypto';
import type { DepositAddressSetupDto } from '@service/contracts';
import type { DepositAddressApproval, Wallet } from '../../generated/prisma/client.js';
import type { Tx } from '../shared/db.js';
import { emitWalletEvent } from '../shared/events.js';
import { deriveDepositAddresses } from './deposit-addresses.js';

const KIND = 'deposit_address';

function approvalView(row: DepositAddressApproval) {
  return { id: row.id, kind: KIND, chain: row.chain, status: row.status, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export function setupView(row: DepositAddressApproval, wallet: Wallet): DepositAddressSetupDto {
  const addresses = wallet.depositAddresses as Record<string, string>;
  return { chain: row.chain, address: addresses[row.chain] ?? null, approval: approvalView(row) };
}

function announce(tx: Tx, row: DepositAddressApproval, now: Date): Promise<string> {
  return emitWalletEvent(tx, { orgId: row.orgId, walletId: row.walletId, observedAt: now }, 'portfolio_wallet.approval.status_changed', {
    approval: approvalView(row),
  });
}

/** Starts the one-time setup of a chain's deposit address (`pending`), or returns the one already started. */
export async function startSetup(tx: Tx, input: { wallet: Wallet; chain: string; dueAt: Date; now: Date }): Promise<DepositAddressApproval> {
  const { wallet, chain, now } = input;
  const existing = await tx.depositAddressApproval.findUnique({ where: { walletId_chain: { walletId: wallet.id, chain } } });
  if (existing) return existing;
  const row = await tx.depositAddressApproval.create({
    data: { id: randomUUID(), walletId: wallet.id, orgId: wallet.orgId, chain, status: 'pending', dueAt: input.dueAt, createdAt: now, updatedAt: now },
  });
  await announce(tx, row, now);
  return row;
}

/** `pending` -> `approved`: the derived address joins the wallet's `depositAddresses`. */
export async function approveSetup(tx: Tx, input: { wallet: Wallet; row: DepositAddressApproval; seed: Buffer; now: Date }): Promise<void> {
  const { wallet, row, now } = input;
  const addresses = { ...(wallet.depositAddresses as Record<string, string>), ...deriveDepositAddresses(input.seed, wallet.id, [row.chain]) };
  await tx.wallet.update({ where: { id: wallet.id }, data: { depositAddresses: addresses, updatedAt: now } });
  const approved = await tx.depositAddressApproval.update({ where: { id: row.id }, data: { status: 'approved', updatedAt: now } });
  await announce(tx, approved, now);
}
