import type { DepositAddressApproval, Wallet } from '../../generated/prisma/client.js';
import { deriveDepositAddresses } from '../domain/addresses/deposit-addresses.js';
import { FAILED } from '../domain/customer-approvals/activities.js';
import { approvalChanged } from '../domain/wallet-events.js';
import { addEndActivity } from '../repositories/approvals.repository.js';
import { addSetupStatus } from '../repositories/deposit-address-approvals.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { addDepositAddresses } from '../repositories/wallets.repository.js';
import { Writes } from '../repositories/writes.js';

/**
 * The approvers' quorum was reached: `pending` -> `approved` (announced: `approval.status_changed`),
 * the derived address joins the wallet's `depositAddresses`. One statement.
 */
export async function approveSetup(
  tx: WalletTx,
  input: { wallet: Wallet; row: DepositAddressApproval; seed: Buffer; now: Date },
): Promise<DepositAddressApproval> {
  const { wallet, row, now } = input;
  const addresses = {
    ...(wallet.depositAddresses as Record<string, string>),
    ...deriveDepositAddresses(input.seed, wallet.id, [row.chain]),
  };
  const writes = new Writes();
  addDepositAddresses(writes, wallet.id, addresses, now);
  const approved = addSetupStatus(writes, row, 'approved', now);
  writes.addEvent(approvalChanged(approved, now));
  await writes.run(tx);
  return approved;
}

/** An approver rejected the setup: `pending` -> `rejected`, announced (`approval.status_changed`). One statement; the row as written. */
export async function rejectSetup(tx: WalletTx, row: DepositAddressApproval, now: Date): Promise<DepositAddressApproval> {
  const writes = new Writes();
  const rejected = addSetupStatus(writes, row, 'rejected', now);
  writes.addEvent(approvalChanged(rejected, now));
  await writes.run(tx);
  return rejected;
}

/**
 * The deadline passed without quorum: the setup and its activity fail (announced:
 * `approval.status_changed`); enabling again starts over. One statement.
 */
export async function expireSetup(tx: WalletTx, row: DepositAddressApproval, now: Date): Promise<void> {
  const writes = new Writes();
  if (row.activityId) addEndActivity(writes, row.activityId, FAILED, now);
  const failed = addSetupStatus(writes, row, 'failed', now);
  writes.addEvent(approvalChanged(failed, now));
  await writes.run(tx);
}
