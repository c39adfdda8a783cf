import { randomUUID } from 'node:crypto';
import type { NewestFirst } from '@service/pagination';
import type { ApprovalActivity, ApprovalAuditEntry, ApprovalPolicy, Approver, ApprovalVote } from '../../generated/prisma/client.js';
import type { ActivityKind, ActivitySubject } from '../domain/customer-approvals/activities.js';
import { CONSENSUS_NEEDED } from '../domain/customer-approvals/activities.js';
import { activityFingerprint } from '../domain/customer-approvals/turnkey-request.js';
import type { Tx } from './db.js';
import type { Writes } from './writes.js';

// ---------- approvers ----------

/** Adds an approver unless the organization has its key already; concurrent duplicates meet on the unique key. */
export async function addApprover(db: Tx, approver: Omit<Approver, 'createdAt'> & { createdAt: Date }): Promise<boolean> {
  const { count } = await db.approver.createMany({ data: [approver], skipDuplicates: true });
  return count > 0;
}

export function listApprovers(db: Tx, orgId: string, page: NewestFirst): Promise<Approver[]> {
  return db.approver.findMany(page.findArgs({ orgId }));
}

export function countApprovers(db: Tx, orgId: string): Promise<number> {
  return db.approver.count({ where: { orgId } });
}

export function findApprover(db: Tx, orgId: string, approverId: string): Promise<Approver | null> {
  return db.approver.findFirst({ where: { id: approverId, orgId } });
}

export function findApproverByKey(db: Tx, orgId: string, publicKey: string): Promise<Approver | null> {
  return db.approver.findUnique({ where: { orgId_publicKey: { orgId, publicKey } } });
}

/** Whether the organization's approver existed (and is gone now). */
export async function deleteApprover(db: Tx, orgId: string, approverId: string): Promise<boolean> {
  const { count } = await db.approver.deleteMany({ where: { id: approverId, orgId } });
  return count > 0;
}

// ---------- policy and audit ----------

export function findPolicy(db: Tx, orgId: string): Promise<ApprovalPolicy | null> {
  return db.approvalPolicy.findUnique({ where: { orgId } });
}

export function savePolicy(db: Tx, policy: ApprovalPolicy): Promise<ApprovalPolicy> {
  return db.approvalPolicy.upsert({ where: { orgId: policy.orgId }, create: policy, update: policy });
}

/** Serializes changes to an organization's approvers and policy (a policy check counts approvers). */
export async function lockApprovals(tx: Tx, orgId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`approvals:${orgId}`}))`;
}

export async function audit(
  tx: Tx,
  entry: { orgId: string; principalId: string; action: string; before: object | null; after: object | null; now: Date },
): Promise<void> {
  const { orgId, principalId, action, before, after, now } = entry;
  await tx.approvalAuditEntry.create({
    data: { id: randomUUID(), orgId, principalId, action, before: (before ?? undefined) as never, after: (after ?? undefined) as never, createdAt: now },
  });
}

export function listAudit(db: Tx, orgId: string, page: NewestFirst): Promise<ApprovalAuditEntry[]> {
  return db.approvalAuditEntry.findMany(page.findArgs({ orgId }));
}

// ---------- activities and votes ----------

type NewActivity = { orgId: string; walletId: string; kind: ActivityKind; quorum: number; subject: ActivitySubject; setupId?: string; validBefore: Date; now: Date };

/** A new pending activity of the organization with its fingerprint over what it approves. */
export function createActivity(tx: Tx, input: NewActivity): Promise<ApprovalActivity> {
  const row = activityOf(input);
  return tx.approvalActivity.create({ data: { ...row, subject: row.subject as never } });
}

/**
 * {@link createActivity} as part of the statement's `writes`; the row is known before it is
 * written, so it is returned at once.
 */
export function addActivity(writes: Writes, input: NewActivity): ApprovalActivity {
  const row = activityOf(input);
  const { bind } = writes;
  writes.add(
    `INSERT INTO approval_activities (id, org_id, wallet_id, kind, withdrawal_id, leg_id, setup_id, status, fingerprint, quorum, subject, valid_before, created_at)
     VALUES (${bind(row.id, '::uuid')}, ${bind(row.orgId, '::text')}, ${bind(row.walletId, '::uuid')}, ${bind(row.kind, '::text')}, ${bind(row.withdrawalId, '::uuid')},
             ${bind(row.legId, '::uuid')}, ${bind(row.setupId, '::uuid')}, ${bind(row.status, '::text')}, ${bind(row.fingerprint, '::text')}, ${bind(row.quorum, '::int')},
             ${bind(JSON.stringify(row.subject), '::jsonb')}, ${bind(row.validBefore.toISOString(), '::timestamptz')}, ${bind(row.createdAt.toISOString(), '::timestamptz')})`,
  );
  return row;
}

function activityOf(input: NewActivity): ApprovalActivity {
  const id = randomUUID();
  const { orgId, walletId, kind, quorum, subject, validBefore, now } = input;
  const fingerprint = activityFingerprint({ activityId: id, organizationId: orgId, kind, subject });
  return {
    id,
    orgId,
    walletId,
    kind,
    withdrawalId: subject.withdrawalId,
    legId: subject.withdrawalLegId,
    setupId: input.setupId ?? null,
    status: CONSENSUS_NEEDED,
    fingerprint,
    quorum,
    subject: subject as never,
    validBefore,
    createdAt: now,
    completedAt: null,
  };
}

/** The organization's activity; null when unknown or another organization's. */
export function findActivity(db: Tx, orgId: string, activityId: string): Promise<ApprovalActivity | null> {
  return db.approvalActivity.findFirst({ where: { id: activityId, orgId } });
}

/** Pending activities of the organization whose deadline has not passed, oldest first. */
export function listPendingActivities(db: Tx, orgId: string, now: Date): Promise<ApprovalActivity[]> {
  return db.approvalActivity.findMany({ where: { orgId, status: CONSENSUS_NEEDED, validBefore: { gt: now } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export function endActivity(tx: Tx, activityId: string, status: string, now: Date): Promise<ApprovalActivity> {
  return tx.approvalActivity.update({ where: { id: activityId }, data: { status, completedAt: now } });
}

/** {@link endActivity} as part of the statement's `writes`. */
export function addEndActivity(writes: Writes, activityId: string, status: string, now: Date): void {
  const { bind } = writes;
  writes.add(
    `UPDATE approval_activities SET status = ${bind(status, '::text')}, completed_at = ${bind(now.toISOString(), '::timestamptz')} WHERE id = ${bind(activityId, '::uuid')}`,
  );
}

/** Records a vote; false when this key has voted on the activity already. */
export async function recordVote(tx: Tx, vote: Omit<ApprovalVote, 'createdAt'> & { createdAt: Date }): Promise<boolean> {
  const { count } = await tx.approvalVote.createMany({ data: [vote], skipDuplicates: true });
  return count > 0;
}

export function votesOn(tx: Tx, activityId: string): Promise<ApprovalVote[]> {
  return tx.approvalVote.findMany({ where: { activityId } });
}
