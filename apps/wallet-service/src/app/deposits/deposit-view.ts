import type { DepositObject } from '@service/contracts';
import { formatUsd } from '@service/money';
import type { Deposit } from '../../generated/prisma/client.js';

export function depositView(row: Deposit): DepositObject {
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
