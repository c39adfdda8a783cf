import type { DepositObject } from '@service/contracts';
import { formatUsd } from '@service/money';
import type { DepositRecord } from './records.js';

export function depositView(row: DepositRecord): DepositObject {
  return {
    id: row.id,
    amount: formatUsd(row.amount),
    token: row.token,
    chain: row.chain,
    fromAddress: row.fromAddress,
    txHash: row.txHash,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}
