import type { DepositAddressApproval, Wallet } from '../../generated/prisma/client.js';
import { deriveDepositAddresses } from '../domain/addresses/deposit-addresses.js';
import { FAILED } from '../domain/customer-approvals/activities.js';
import { endActivity } from '../repositories/approvals.repository.js';
import type { Tx } from '../repositories/db.js';
import { setSetupStatus } from '../repositories/deposit-address-approvals.repository.js';
import { setDepositAddresses } from '../repositories/wallets.repository.js';

/** The approvers' quorum was reached: `pending` -> `approved`, the derived address joins the wallet's `depositAddresses`. */
export async function approveSetup(tx: Tx, input: { wallet: Wallet; row: DepositAddressApproval; seed: Buffer; now: Date }): Promise<DepositAddressApproval> {
  const { wallet, row, now } = input;
  const addresses = { ...(wallet.depositAddresses as Record<string, string>), ...deriveDepositAddresses(input.seed, wallet.id, [row.chain]) };
  await setDepositAddresses(tx, wallet.id, addresses, now);
  return setSetupStatus(tx, row.id, 'approved', now);
}

/** The deadline passed without quorum: the setup and its activity fail; enabling again starts over. */
export async function expireSetup(tx: Tx, row: DepositAddressApproval, now: Date): Promise<void> {
  if (row.activityId) await endActivity(tx, row.activityId, FAILED, now);
  await setSetupStatus(tx, row.id, 'failed', now);
}
