import { randomUUID } from 'node:crypto';
import type { NewestFirst } from '@service/pagination';
import type { ApprovalActivity, ApprovalAuditEntry, ApprovalPolicy, Approver, ApprovalVote } from '../../generated/prisma/client.js';
import type { ActivityKind, ActivitySubject } from '../domain/customer-approvals/activities.js';
import { CONSENSUS_NEEDED } from '../domain/customer-approvals/activities.js';
import { activityFingerprint } from '../domain/customer-approvals/turnkey-request.js';
import type { ApprovalPolicyRecord } from '../domain/customer-approvals/policy.js';
import type { Tx } from './db.js';
import type { WalletDb, WalletTx } from './wallet-sql.js';
import type { Writes } from './writes.js';

// ---------- approvers ----------

export function listApprovers(db: Tx, orgId: string, page: NewestFirst): Promise<Approver[]> {
  return db.approver.findMany(page.findArgs({ orgId }));
}

/** The organization's approver with this key (a vote's, read under the wallet or approvals lock); null when none. */
export async function findApproverByKey(tx: WalletTx, orgId: string, publicKey: string): Promise<Approver | null> {
  const [row] = await tx.$queryRawUnsafe<Approver[]>(
    `SELECT id::text AS id, org_id AS "orgId", label, public_key AS "publicKey", created_at AS "createdAt" FROM approvers WHERE org_id = $1 AND public_key = $2`,
    orgId,
    publicKey,
  );
  return row ?? null;
}

// ---------- policy and audit ----------

/**
 * What starting an activity under the wallet lock needs: how many approvers the organization has
 * and its own approval policy (null: the environment's default). One statement.
 */
export async function readApprovalRules(tx: WalletTx, orgId: string): Promise<{ approvers: number; policy: ApprovalPolicyRecord | null }> {
  const [row] = await tx.$queryRawUnsafe<
    { approvers: number; withdrawals: string | null; threshold: string | null; quorum: number | null; updatedAt: Date | null }[]
  >(
    `SELECT (SELECT count(*)::int FROM approvers WHERE org_id = $1) AS approvers,
            p.withdrawals, p.threshold::text AS threshold, p.quorum, p.updated_at AS "updatedAt"
       FROM (SELECT 1) AS one LEFT JOIN approval_policies p ON p.org_id = $1`,
    orgId,
  );
  if (!row) throw new Error('approval rules not read');
  const { approvers, withdrawals, threshold, quorum, updatedAt } = row;
  return {
    approvers,
    policy:
      withdrawals === null
        ? null
        : { withdrawals, threshold: threshold === null ? null : BigInt(threshold), quorum: quorum ?? 1, updatedAt },
  };
}

export function findPolicy(db: Tx, orgId: string): Promise<ApprovalPolicy | null> {
  return db.approvalPolicy.findUnique({ where: { orgId } });
}

/**
 * Serializes changes to an organization's approvers, policy and address book, and the votes and
 * expiries of the activities that release them (a policy check counts approvers).
 */
export async function lockApprovals(tx: Tx, orgId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`approvals:${orgId}`}))`;
}

/** {@link lockApprovals} in a PgPoolSql transaction (the same lock). */
export async function lockApprovalsSql(tx: WalletTx, orgId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, `approvals:${orgId}`);
}

export function listAudit(db: Tx, orgId: string, page: NewestFirst): Promise<ApprovalAuditEntry[]> {
  return db.approvalAuditEntry.findMany(page.findArgs({ orgId }));
}

// ---------- activities and votes ----------

type NewActivity = {
  /** The activity's id when the caller names it first (a change's subject shows it); else a new one. */
  id?: string;
  orgId: string;
  /** Null for an organization-level change (`changeId`). */
  walletId: string | null;
  kind: ActivityKind;
  quorum: number;
  subject: ActivitySubject;
  setupId?: string;
  changeId?: string;
  validBefore: Date;
  now: Date;
};

/**
 * A new pending activity of the organization with its fingerprint over what it approves, as part
 * of the statement's `writes`; the row is known before it is written, so it is returned at once.
 */
export function addActivity(writes: Writes, input: NewActivity): ApprovalActivity {
  const row = activityOf(input);
  const { bind } = writes;
  writes.add(
    `INSERT INTO approval_activities (id, org_id, wallet_id, kind, withdrawal_id, leg_id, setup_id, change_id, status, fingerprint, quorum, subject, valid_before, created_at)
     VALUES (${bind(row.id, '::uuid')}, ${bind(row.orgId, '::text')}, ${bind(row.walletId, '::uuid')}, ${bind(row.kind, '::text')}, ${bind(row.withdrawalId, '::uuid')},
             ${bind(row.legId, '::uuid')}, ${bind(row.setupId, '::uuid')}, ${bind(row.changeId, '::uuid')}, ${bind(row.status, '::text')}, ${bind(row.fingerprint, '::text')}, ${bind(row.quorum, '::int')},
             ${bind(JSON.stringify(row.subject), '::jsonb')}, ${bind(row.validBefore.toISOString(), '::timestamptz')}, ${bind(row.createdAt.toISOString(), '::timestamptz')})`,
  );
  return row;
}

function activityOf(input: NewActivity): ApprovalActivity {
  const id = input.id ?? randomUUID();
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
    changeId: input.changeId ?? null,
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
export async function findActivity(db: WalletDb, orgId: string, activityId: string): Promise<ApprovalActivity | null> {
  const [row] = await db.$queryRawUnsafe<ApprovalActivity[]>(
    `SELECT id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", kind, withdrawal_id::text AS "withdrawalId", leg_id::text AS "legId",
            setup_id::text AS "setupId", change_id::text AS "changeId", status, fingerprint, quorum, subject, valid_before AS "validBefore", created_at AS "createdAt", completed_at AS "completedAt"
       FROM approval_activities WHERE id = $1::uuid AND org_id = $2`,
    activityId,
    orgId,
  );
  return row ?? null;
}

/** Pending activities of the organization whose deadline has not passed, oldest first. */
export function listPendingActivities(db: Tx, orgId: string, now: Date): Promise<ApprovalActivity[]> {
  return db.approvalActivity.findMany({
    where: { orgId, status: CONSENSUS_NEEDED, validBefore: { gt: now } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** The activity ends with `status`, as part of the statement's `writes`. */
export function addEndActivity(writes: Writes, activityId: string, status: string, now: Date): void {
  const { bind } = writes;
  writes.add(
    `UPDATE approval_activities SET status = ${bind(status, '::text')}, completed_at = ${bind(now.toISOString(), '::timestamptz')} WHERE id = ${bind(activityId, '::uuid')}`,
  );
}

/** Records a vote; false when this key has voted on the activity already. */
export async function recordVote(tx: WalletTx, vote: Omit<ApprovalVote, 'createdAt'> & { createdAt: Date }): Promise<boolean> {
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO approval_votes (activity_id, public_key, approver_id, action, created_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5::timestamptz) ON CONFLICT DO NOTHING`,
    vote.activityId,
    vote.publicKey,
    vote.approverId,
    vote.action,
    vote.createdAt.toISOString(),
  );
  return inserted > 0;
}

export function votesOn(tx: WalletTx, activityId: string): Promise<ApprovalVote[]> {
  return tx.$queryRawUnsafe<ApprovalVote[]>(
    `SELECT activity_id::text AS "activityId", public_key AS "publicKey", approver_id::text AS "approverId", action, created_at AS "createdAt"
       FROM approval_votes WHERE activity_id = $1::uuid`,
    activityId,
  );
}
