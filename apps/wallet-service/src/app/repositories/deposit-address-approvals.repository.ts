import type { DepositAddressApproval } from '../../generated/prisma/client.js';
import type { WalletTx } from './wallet-sql.js';
import type { Writes } from './writes.js';

/** The deposit_address_approvals table's columns under their model names. */
const APPROVAL_COLUMNS = `id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", chain, status, activity_id::text AS "activityId",
  due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

export async function findSetup(tx: WalletTx, walletId: string, chain: string): Promise<DepositAddressApproval | null> {
  const [row] = await tx.$queryRawUnsafe<DepositAddressApproval[]>(
    `SELECT ${APPROVAL_COLUMNS} FROM deposit_address_approvals WHERE wallet_id = $1::uuid AND chain = $2`,
    walletId,
    chain,
  );
  return row ?? null;
}

/**
 * The setup of a chain's deposit address waiting for its approvers' activity until `dueAt`
 * (`pending`): a new row, or the row of an earlier attempt that was rejected or failed, as part
 * of the statement's `writes`; the row as written.
 */
export function addStartSetup(
  writes: Writes,
  input: {
    id: string;
    wallet: { id: string; orgId: string };
    chain: string;
    activityId: string;
    dueAt: Date;
    now: Date;
    existing: DepositAddressApproval | null;
  },
): DepositAddressApproval {
  const { id, wallet, chain, activityId, dueAt, now, existing } = input;
  const { bind } = writes;
  let row: DepositAddressApproval;
  if (existing) {
    row = { ...existing, status: 'pending', activityId, dueAt, updatedAt: now };
    writes.add(
      `UPDATE deposit_address_approvals SET status = 'pending', activity_id = ${bind(activityId, '::uuid')}, due_at = ${bind(dueAt.toISOString(), '::timestamptz')},
         updated_at = ${bind(now.toISOString(), '::timestamptz')} WHERE id = ${bind(existing.id, '::uuid')}`,
    );
  } else {
    row = { id, walletId: wallet.id, orgId: wallet.orgId, chain, status: 'pending', activityId, dueAt, createdAt: now, updatedAt: now };
    writes.add(
      `INSERT INTO deposit_address_approvals (id, wallet_id, org_id, chain, status, activity_id, due_at, created_at, updated_at)
       VALUES (${bind(id, '::uuid')}, ${bind(wallet.id, '::uuid')}, ${bind(wallet.orgId, '::text')}, ${bind(chain, '::text')}, 'pending', ${bind(activityId, '::uuid')},
               ${bind(dueAt.toISOString(), '::timestamptz')}, ${bind(now.toISOString(), '::timestamptz')}, ${bind(now.toISOString(), '::timestamptz')})`,
    );
  }
  return row;
}

/** `pending` -> `approved`, `rejected` or `failed`, as part of the statement's `writes`; the row as written. */
export function addSetupStatus(
  writes: Writes,
  row: DepositAddressApproval,
  status: 'approved' | 'rejected' | 'failed',
  now: Date,
): DepositAddressApproval {
  const changed = { ...row, status, updatedAt: now };
  const { bind } = writes;
  writes.add(
    `UPDATE deposit_address_approvals SET status = ${bind(status, '::text')}, updated_at = ${bind(now.toISOString(), '::timestamptz')} WHERE id = ${bind(row.id, '::uuid')}`,
  );
  return changed;
}

export async function getApproval(tx: WalletTx, approvalId: string): Promise<DepositAddressApproval> {
  const [row] = await tx.$queryRawUnsafe<DepositAddressApproval[]>(
    `SELECT ${APPROVAL_COLUMNS} FROM deposit_address_approvals WHERE id = $1::uuid`,
    approvalId,
  );
  if (!row) throw new Error(`deposit address approval ${approvalId} not found`);
  return row;
}
