import { randomUUID } from 'node:crypto';
import type { ApprovalChangeKind, ApprovalPolicyMode, GovernedReply, RequestContext } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { parseUsd } from '@service/money';
import { addressKey } from '../domain/addresses/payout-address.js';
import { entryView } from '../domain/address-book-view.js';
import { approverView, COMPLETED, FAILED } from '../domain/customer-approvals/activities.js';
import {
  ACTIVITY_KIND_OF,
  appliesAtOnce,
  type ApprovalChangeRecord,
  changeSubject,
  changeView,
} from '../domain/customer-approvals/changes.js';
import { checkPolicy, type ApprovalPolicyRecord, policyView } from '../domain/customer-approvals/policy.js';
import { approvalChangeChanged } from '../domain/wallet-events.js';
import type { WalletEnvironment } from '../environment/wallet-environment.js';
import {
  addAudit,
  addChangeStatus,
  addDeleteApprover,
  addDeleteEntry,
  addInsertApprover,
  addInsertEntry,
  addSavePolicy,
  addStartChange,
  findApproverById,
  findEntryById,
} from '../repositories/approval-changes.repository.js';
import {
  addActivity,
  addEndActivity,
  findApproverByKey,
  lockApprovalsSql,
  readApprovalRules,
} from '../repositories/approvals.repository.js';
import { hasEntry } from '../repositories/address-book.repository.js';
import type { WalletSql, WalletTx } from '../repositories/wallet-sql.js';
import { Writes } from '../repositories/writes.js';
import { policyFrom } from './policy-in-force.js';

/**
 * Changes to an organization's approvers, policy and address book (the "governed" routes). Each
 * runs under the organization's approvals lock: applied at once when the organization has no
 * approvers yet or the change cannot weaken its protection (a policy that is not weaker), else it
 * waits as an activity (`approver_change`, `policy_change`, `address_book_change`) that the current
 * quorum's stamped votes release, announced through `portfolio_wallet.approval.status_changed`.
 */

/** What a change asks for, as stored in `approval_changes.change` (and shown to the approvers). */
export type ChangeBody = Record<string, unknown>;

/** A requested change: what it is and the answer of the route when it applies. */
export interface ChangeRequest {
  readonly kind: ApprovalChangeKind;
  /** Reads what the change needs (the approver or entry to delete) under the lock: the change's body. */
  readonly build: (tx: WalletTx) => Promise<ChangeBody>;
}

function policyOfChange(change: ChangeBody): ApprovalPolicyRecord & { withdrawals: ApprovalPolicyMode } {
  const thresholdUsd = change['thresholdUsd'];
  return {
    withdrawals: change['withdrawals'] as ApprovalPolicyMode,
    threshold: typeof thresholdUsd === 'string' ? parseUsd(thresholdUsd, { field: 'thresholdUsd' }) : null,
    quorum: change['quorum'] as number,
    updatedAt: null,
  };
}

/**
 * Applies a change with its audit entry (one statement), after checking it still applies: the key
 * is not an approver yet, the approver or entry to delete is still there, the policy's quorum is
 * reachable, the address is not in the book yet. A check that fails throws its `ServiceError`
 * before anything is written. The route's answer.
 */
export async function applyChange(
  tx: WalletTx,
  env: WalletEnvironment,
  input: {
    orgId: string;
    kind: ApprovalChangeKind;
    change: ChangeBody;
    principalId: string;
    activityId: string | null;
    approvedBy: string[] | null;
    now: Date;
  },
): Promise<unknown> {
  const { orgId, kind, change, now } = input;
  const writes = new Writes();
  const audit = (before: object | null, after: object | null) =>
    addAudit(writes, {
      orgId,
      principalId: input.principalId,
      action: kind,
      before,
      after,
      activityId: input.activityId,
      approvedBy: input.approvedBy,
      now,
    });
  let answer: unknown;
  switch (kind) {
    case 'approver.created': {
      const publicKey = change['publicKey'] as string;
      if (await findApproverByKey(tx, orgId, publicKey))
        throw new ServiceError('approver_duplicate_key', 'This public key is already an approver of the organization.');
      const approver = { id: change['id'] as string, orgId, label: change['label'] as string, publicKey, createdAt: now };
      addInsertApprover(writes, approver);
      answer = approverView(approver);
      audit(null, answer as object);
      break;
    }
    case 'approver.deleted': {
      const approver = await findApproverById(tx, orgId, change['id'] as string);
      if (!approver) throw new ServiceError('approver_not_found', `Approver ${String(change['id'])} was not found.`);
      addDeleteApprover(writes, orgId, approver.id);
      answer = { id: approver.id, deleted: true };
      audit(approverView(approver), null);
      break;
    }
    case 'policy.updated': {
      const { approvers, policy: stored } = await readApprovalRules(tx, orgId);
      const policy = policyOfChange(change);
      checkPolicy(policy, approvers);
      const saved = { ...policy, orgId, updatedAt: now };
      addSavePolicy(writes, saved);
      answer = policyView(saved);
      audit(policyView(policyFrom(stored, env, orgId)), answer as object);
      break;
    }
    case 'address_book.created': {
      const chain = change['chain'] as string;
      const address = change['address'] as string;
      const key = addressKey(chain, address);
      if (await hasEntry(tx, orgId, chain, key))
        throw new ServiceError('address_book_duplicate_entry', `${address} on ${chain} is already in the address book.`);
      const entry = {
        id: change['id'] as string,
        orgId,
        chain,
        address,
        addressKey: key,
        label: change['label'] as string,
        createdAt: now,
      };
      addInsertEntry(writes, entry);
      answer = { entry: entry.id };
      audit(null, entryView(entry));
      break;
    }
    case 'address_book.deleted': {
      const entry = await findEntryById(tx, orgId, change['id'] as string);
      if (!entry) throw new ServiceError('address_book_entry_not_found', `Address book entry ${String(change['id'])} was not found.`);
      addDeleteEntry(writes, orgId, entry.id);
      answer = { id: entry.id, deleted: true };
      audit(entryView(entry), null);
      break;
    }
  }
  await writes.run(tx);
  return answer;
}

/**
 * A governed change, in one PgPoolSql transaction under the organization's approvals lock: applied
 * at once (`applied`: the route's answer) or started as a pending change with its activity and
 * event (`pending`). Checks that would refuse it now (a duplicate key, an unknown approver, an
 * unreachable quorum) answer at once either way.
 */
export async function governChange<T>(
  sql: WalletSql,
  env: WalletEnvironment,
  ctx: RequestContext,
  request: ChangeRequest,
): Promise<GovernedReply<T>> {
  const { orgId, principalId } = ctx;
  const { kind } = request;
  return sql.$transaction(async (tx) => {
    await lockApprovalsSql(tx, orgId);
    const change = await request.build(tx);
    const { approvers, policy: stored } = await readApprovalRules(tx, orgId);
    const inForce = policyFrom(stored, env, orgId);
    const policy = kind === 'policy.updated' ? { before: inForce, after: policyOfChange(change) } : {};
    if (appliesAtOnce({ kind, approvers, ...policy })) {
      const applied = (await applyChange(tx, env, {
        orgId,
        kind,
        change,
        principalId,
        activityId: null,
        approvedBy: null,
        now: new Date(),
      })) as T;
      return { applied };
    }
    await checkStillApplies(tx, orgId, kind, change);
    const now = new Date();
    const validBefore = new Date(now.getTime() + env.config.WALLET_APPROVAL_TTL_MS);
    const row: ApprovalChangeRecord = {
      id: randomUUID(),
      orgId,
      kind,
      change,
      before: kind === 'policy.updated' ? policyView(inForce) : null,
      status: 'pending',
      activityId: randomUUID(),
      principalId,
      dueAt: validBefore,
      createdAt: now,
      updatedAt: now,
    };
    const writes = new Writes();
    addActivity(writes, {
      id: row.activityId,
      orgId,
      walletId: null,
      kind: ACTIVITY_KIND_OF[kind],
      quorum: Math.min(inForce.quorum, approvers),
      subject: changeSubject(changeView(row)),
      changeId: row.id,
      validBefore,
      now,
    });
    addStartChange(writes, row);
    writes.addEvent(approvalChangeChanged(row, now));
    await writes.run(tx);
    return { pending: changeView(row) };
  });
}

/**
 * The checks of {@link applyChange} without its writes, so a change that would be refused now is
 * refused at once rather than after the approvers' votes.
 */
async function checkStillApplies(tx: WalletTx, orgId: string, kind: ApprovalChangeKind, change: ChangeBody): Promise<void> {
  switch (kind) {
    case 'approver.created':
      if (await findApproverByKey(tx, orgId, change['publicKey'] as string))
        throw new ServiceError('approver_duplicate_key', 'This public key is already an approver of the organization.');
      return;
    case 'policy.updated':
      checkPolicy(policyOfChange(change), (await readApprovalRules(tx, orgId)).approvers);
      return;
    case 'address_book.created': {
      const chain = change['chain'] as string;
      const address = change['address'] as string;
      if (await hasEntry(tx, orgId, chain, addressKey(chain, address)))
        throw new ServiceError('address_book_duplicate_entry', `${address} on ${chain} is already in the address book.`);
      return;
    }
    default:
      // Deletions read their approver or entry in `build` (404 there).
      return;
  }
}

/**
 * The approvers decided a pending change: quorum applies it (`approved`; `failed` when it no
 * longer applies, e.g. the key became an approver meanwhile) with its audit entry naming the
 * activity and the approving keys; a reject makes it `rejected`. Announced. Its status afterwards.
 */
export async function decideChange(
  tx: WalletTx,
  env: WalletEnvironment,
  input: { row: ApprovalChangeRecord; outcome: string; approvedBy: string[]; now: Date },
): Promise<string> {
  const { row, outcome, now } = input;
  let status: 'approved' | 'rejected' | 'failed' = 'rejected';
  if (outcome === COMPLETED) {
    status = 'approved';
    try {
      await applyChange(tx, env, {
        orgId: row.orgId,
        kind: row.kind as ApprovalChangeKind,
        change: row.change as ChangeBody,
        principalId: row.principalId,
        activityId: row.activityId,
        approvedBy: input.approvedBy,
        now,
      });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      status = 'failed';
    }
  }
  const writes = new Writes();
  const changed = addChangeStatus(writes, row, status, now);
  writes.addEvent(approvalChangeChanged(changed, now));
  await writes.run(tx);
  return status;
}

/** The deadline passed without quorum: the change and its activity fail (announced). */
export async function expireChange(tx: WalletTx, row: ApprovalChangeRecord, now: Date): Promise<void> {
  const writes = new Writes();
  addEndActivity(writes, row.activityId, FAILED, now);
  const failed = addChangeStatus(writes, row, 'failed', now);
  writes.addEvent(approvalChangeChanged(failed, now));
  await writes.run(tx);
}
