import type { DepositAddressApprovalDto, DepositAddressSetupDto } from '@service/contracts';
import type { DepositAddressApprovalRecord, WalletRecord } from './records.js';

const KIND = 'deposit_address';

export function approvalView(row: DepositAddressApprovalRecord): DepositAddressApprovalDto {
  return {
    id: row.id,
    kind: KIND,
    chain: row.chain,
    status: row.status,
    turnkeyActivityId: row.activityId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function setupView(row: DepositAddressApprovalRecord, wallet: WalletRecord): DepositAddressSetupDto {
  const addresses = wallet.depositAddresses as Record<string, string>;
  return { chain: row.chain, address: addresses[row.chain] ?? null, approval: approvalView(row) };
}
