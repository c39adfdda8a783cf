import { ServiceError } from '@service/errors';
import { formatUsd, parseUsd } from '@service/money';

/** What an organization's withdrawals must satisfy. */
export interface WithdrawalPolicy {
  /** Without the organization's own approval policy: each payout leg waits for one approver's stamped vote. */
  readonly requireApproval: boolean;
  /** Only addresses in the organization's address book may receive. */
  readonly requireWhitelist: boolean;
  /** Production: a larger withdrawal needs a withdrawal policy set up first. */
  readonly limit: bigint | null;
}

export type WithdrawalPolicies = ReadonlyMap<string, Partial<WithdrawalPolicy>>;

const DEFAULT_ORG = '*';

function parseEntry(orgId: string, raw: unknown): Partial<WithdrawalPolicy> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`the policy of ${orgId} must be an object`);
  const { requireApproval, requireWhitelist, limitUsd } = raw as Record<string, unknown>;
  for (const [name, value] of Object.entries({ requireApproval, requireWhitelist })) {
    if (value !== undefined && typeof value !== 'boolean') throw new Error(`${orgId}.${name} must be true or false`);
  }
  return {
    ...(requireApproval === undefined ? {} : { requireApproval: requireApproval as boolean }),
    ...(requireWhitelist === undefined ? {} : { requireWhitelist: requireWhitelist as boolean }),
    ...(limitUsd === undefined ? {} : { limit: parseUsd(limitUsd, { field: `${orgId}.limitUsd` }) }),
  };
}

/** Reads WALLET_WITHDRAWAL_POLICIES: a JSON object of policies by organization id (empty: none). */
export function parseWithdrawalPolicies(raw: string): WithdrawalPolicies {
  // Empty is "no policies", so deployments can pass the variable through unset.
  if (raw.trim() === '') return new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('must be a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('must be a JSON object');
  return new Map(Object.entries(parsed).map(([orgId, entry]) => [orgId, parseEntry(orgId, entry)]));
}

/**
 * The policy in force for an organization: its own entry over the `*` entry over the
 * environment's default (production waits for customer approval, the sandbox approves itself).
 */
export function policyOf(policies: WithdrawalPolicies, orgId: string, sandbox: boolean): WithdrawalPolicy {
  return { requireApproval: !sandbox, requireWhitelist: false, limit: null, ...policies.get(DEFAULT_ORG), ...policies.get(orgId) };
}

/** Production refuses a withdrawal above the organization's limit until a withdrawal policy covers it. */
export function checkLimit(policy: WithdrawalPolicy, amount: bigint, sandbox: boolean): void {
  if (sandbox || policy.limit === null || amount <= policy.limit) return;
  throw new ServiceError(
    'withdrawal_policy_required',
    `Withdrawals above ${formatUsd(policy.limit)} USD need a withdrawal policy for this organization.`,
  );
}
