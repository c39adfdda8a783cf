import { randomUUID } from 'node:crypto';
import type { AddressBookEntry, Approver } from '../../generated/prisma/client.js';
import type { ApprovalChangeRecord, ApprovalChangeStatus } from '../domain/customer-approvals/changes.js';
import type { WalletTx } from './wallet-sql.js';
import type { Writes } from './writes.js';

/**
 * Changes to an organization's approvers, policy and address book on PgPoolSql, under the
 * organization's approvals lock (`lockApprovalsSql`): the pending change rows, and the writes that
 * apply a change (at once, or with the vote that reached quorum) with its audit entry.
 */

/** The approval_changes table's columns under their model names. */
const CHANGE_COLUMNS = `id::text AS id, org_id AS "orgId", kind, change, before, status, activity_id::text AS "activityId", principal_id AS "principalId",
  due_at AS "dueAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** A new `pending` change waiting for its activity until `dueAt`, as part of the statement's `writes`. */
export function addStartChange(writes: Writes, row: ApprovalChangeRecord): void {
  const { bind } = writes;
  writes.add(
    `INSERT INTO approval_changes (id, org_id, kind, change, before, status, activity_id, principal_id, due_at, created_at, updated_at)
     VALUES (${bind(row.id, '::uuid')}, ${bind(row.orgId, '::text')}, ${bind(row.kind, '::text')}, ${bind(JSON.stringify(row.change), '::jsonb')},
             ${bind(row.before === null ? null : JSON.stringify(row.before), '::jsonb')}, ${bind(row.status, '::text')}, ${bind(row.activityId, '::uuid')},
             ${bind(row.principalId, '::text')}, ${bind(row.dueAt.toISOString(), '::timestamptz')}, ${bind(row.createdAt.toISOString(), '::timestamptz')},
             ${bind(row.updatedAt.toISOString(), '::timestamptz')})`,
  );
}

/** `pending` -> `approved`, `rejected` or `failed`, as part of the statement's `writes`; the row as written. */
export function addChangeStatus(writes: Writes, row: ApprovalChangeRecord, status: ApprovalChangeStatus, now: Date): ApprovalChangeRecord {
  const { bind } = writes;
  writes.add(
    `UPDATE approval_changes SET status = ${bind(status, '::text')}, updated_at = ${bind(now.toISOString(), '::timestamptz')} WHERE id = ${bind(row.id, '::uuid')}`,
  );
  return { ...row, status, updatedAt: now };
}

export async function getChange(tx: WalletTx, changeId: string): Promise<ApprovalChangeRecord> {
  const [row] = await tx.$queryRawUnsafe<ApprovalChangeRecord[]>(
    `SELECT ${CHANGE_COLUMNS} FROM approval_changes WHERE id = $1::uuid`,
    changeId,
  );
  if (!row) throw new Error(`approval change ${changeId} not found`);
  return row;
}

// ---------- what a change reads and writes ----------

/** The organization's approver by id; null when none. */
export async function findApproverById(tx: WalletTx, orgId: string, approverId: string): Promise<Approver | null> {
  const [row] = await tx.$queryRawUnsafe<Approver[]>(
    `SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND id = $2::uuid`,
    orgId,
    approverId,
  );
  return row ?? null;
}

/** The organization's address-book entry by id; null when none. */
export async function findEntryById(tx: WalletTx, orgId: string, entryId: string): Promise<AddressBookEntry | null> {
  const [row] = await tx.$queryRawUnsafe<AddressBookEntry[]>(
    `SELECT id::text AS id, org_id AS "orgId", chain, address, address_key AS "addressKey", label, created_at AS "createdAt"
       FROM address_book_entries WHERE org_id = $1 AND id = $2::uuid`,
    orgId,
    entryId,
  );
  return row ?? null;
}

export function addInsertApprover(writes: Writes, approver: Approver): void {
  const { bind } = writes;
  writes.add(
    `INSERT INTO approvers (id, org_id, label, public_key, created_at)
     VALUES (${bind(approver.id, '::uuid')}, ${bind(approver.orgId, '::text')}, ${bind(approver.label, '::text')}, ${bind(approver.publicKey, '::text')},
             ${bind(approver.createdAt.toISOString(), '::timestamptz')})`,
  );
}

export function addDeleteApprover(writes: Writes, orgId: string, approverId: string): void {
  const { bind } = writes;
  writes.add(`DELETE FROM approvers WHERE org_id = ${bind(orgId, '::text')} AND id = ${bind(approverId, '::uuid')}`);
}

export function addSavePolicy(
  writes: Writes,
  policy: { orgId: string; withdrawals: string; threshold: bigint | null; quorum: number; updatedAt: Date },
): void {
  const { bind } = writes;
  writes.add(
    `INSERT INTO approval_policies (org_id, withdrawals, threshold, quorum, updated_at)
     VALUES (${bind(policy.orgId, '::text')}, ${bind(policy.withdrawals, '::text')}, ${bind(policy.threshold === null ? null : String(policy.threshold), '::bigint')},
             ${bind(policy.quorum, '::int')}, ${bind(policy.updatedAt.toISOString(), '::timestamptz')})
     ON CONFLICT (org_id) DO UPDATE SET withdrawals = EXCLUDED.withdrawals, threshold = EXCLUDED.threshold, quorum = EXCLUDED.quorum, updated_at = EXCLUDED.updated_at`,
  );
}

export function addInsertEntry(writes: Writes, entry: AddressBookEntry): void {
  const { bind } = writes;
  writes.add(
    `INSERT INTO address_book_entries (id, org_id, chain, address, address_key, label, created_at)
     VALUES (${bind(entry.id, '::uuid')}, ${bind(entry.orgId, '::text')}, ${bind(entry.chain, '::text')}, ${bind(entry.address, '::text')},
             ${bind(entry.addressKey, '::text')}, ${bind(entry.label, '::text')}, ${bind(entry.createdAt.toISOString(), '::timestamptz')})`,
  );
}

export function addDeleteEntry(writes: Writes, orgId: string, entryId: string): void {
  const { bind } = writes;
  writes.add(`DELETE FROM address_book_entries WHERE org_id = ${bind(orgId, '::text')} AND id = ${bind(entryId, '::uuid')}`);
}

/** An audit entry; `activityId` and `approvedBy` (public keys) for a change the approvers released. */
export function addAudit(
  writes: Writes,
  entry: {
    orgId: string;
    principalId: string;
    action: string;
    before: object | null;
    after: object | null;
    activityId: string | null;
    approvedBy: string[] | null;
    now: Date;
  },
): void {
  const { bind } = writes;
  const json = (value: unknown) => bind(value === null ? null : JSON.stringify(value), '::jsonb');
  writes.add(
    `INSERT INTO approval_audit (id, org_id, principal_id, action, before, after, activity_id, approved_by, created_at)
     VALUES (${bind(randomUUID(), '::uuid')}, ${bind(entry.orgId, '::text')}, ${bind(entry.principalId, '::text')}, ${bind(entry.action, '::text')},
             ${json(entry.before)}, ${json(entry.after)}, ${bind(entry.activityId, '::uuid')}, ${json(entry.approvedBy)}, ${bind(entry.now.toISOString(), '::timestamptz')})`,
  );
}
