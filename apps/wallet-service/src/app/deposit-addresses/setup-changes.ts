import type { DepositAddressApproval, Wallet } from '../../generated/prisma/client.js';
import { deriveDepositAddresses } from '../domain/addresses/deposit-addresses.js';
import { FAILED } from '../domain/customer-approvals/activities.js';
import { addEndActivity } from '../repositories/approvals.repository.js';
import { addSetupStatus } from '../repositories/deposit-address-approvals.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { addDepositAddresses } from '../repositories/wallets.repository.js';
import { Writes } from '../repositories/writes.js';

/** The approvers' quorum was reached: `pending` -> `approved`, the derived address joins the wallet's `depositAddresses`. One statement. */
export async function approveSetup(tx: WalletTx, input: { wallet: Wallet; row: DepositAddressApproval; seed: Buffer; now: Date }): Promise<DepositAddressApproval> {
  const { wallet, row, now } = input;
  const addresses = { ...(wallet.depositAddresses as Record<string, string>), ...deriveDepositAddresses(input.seed, wallet.id, [row.chain]) };
  const writes = new Writes();
  addDepositAddresses(writes, wallet.id, addresses, now);
  const approved = addSetupStatus(writes, row, 'approved', now);
  await writes.run(tx);
  return approved;
}

/** The deadline passed without quorum: the setup and its activity fail; enabling again starts over. One statement. */
export async function expireSetup(tx: WalletTx, row: DepositAddressApproval, now: Date): Promise<void> {
  const writes = new Writes();
  if (row.activityId) addEndActivity(writes, row.activityId, FAILED, now);
  addSetupStatus(writes, row, 'failed', now);
  await writes.run(tx);
}
