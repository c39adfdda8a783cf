import { effectivePolicy, type ApprovalPolicyRecord } from '../domain/customer-approvals/policy.js';
import { policyOf } from '../domain/withdrawal-policy.js';
import type { WalletEnvironment } from '../environment/wallet-environment.js';
import { findPolicy } from '../repositories/approvals.repository.js';
import type { Tx } from '../repositories/db.js';

/**
 * The approval policy in force for an organization: its own (PUT /v2/approvals/policy), else the
 * environment's default from WALLET_WITHDRAWAL_POLICIES (production: every withdrawal, quorum 1;
 * sandbox: none).
 */
export async function policyInForce(db: Tx, env: WalletEnvironment, orgId: string): Promise<ApprovalPolicyRecord> {
  return policyFrom(await findPolicy(db, orgId), env, orgId);
}

/** {@link policyInForce} from the organization's own policy as the caller read it (null: none). */
export function policyFrom(stored: ApprovalPolicyRecord | null, env: WalletEnvironment, orgId: string): ApprovalPolicyRecord {
  return effectivePolicy(stored, policyOf(env.config.WALLET_WITHDRAWAL_POLICIES, orgId, env.sandbox).requireApproval);
}
