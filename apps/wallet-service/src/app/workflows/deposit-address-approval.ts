import type { DepositAddressApproval, Wallet } from '../../generated/prisma/client.js';
import { deriveDepositAddresses } from '../domain/addresses/deposit-addresses.js';
import type { Tx } from '../repositories/db.js';
import { approve } from '../repositories/deposit-address-approvals.repository.js';
import { setDepositAddresses } from '../repositories/wallets.repository.js';

/** `pending` -> `approved`: the derived address joins the wallet's `depositAddresses`. */
export async function approveSetup(tx: Tx, input: { wallet: Wallet; row: DepositAddressApproval; seed: Buffer; now: Date }): Promise<void> {
  const { wallet, row, now } = input;
  const addresses = { ...(wallet.depositAddresses as Record<string, string>), ...deriveDepositAddresses(input.seed, wallet.id, [row.chain]) };
  await setDepositAddresses(tx, wallet.id, addresses, now);
  await approve(tx, row.id, now);
}
