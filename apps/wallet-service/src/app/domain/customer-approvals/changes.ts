import type { ApprovalChangeDto, ApprovalChangeKind } from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { ActivityKind, ActivitySubject } from './activities.js';
import type { ApprovalPolicyRecord } from './policy.js';
import { parseStamp, stampSigns } from './stamp.js';
import { STAMP_WINDOW_MS } from './turnkey-request.js';

/**
 * Changes to an organization's approvers, policy and address book. Once it has approvers, each one
 * that could weaken its protection waits as an activity its approvers' quorum releases, so a
 * bearer credential alone can neither add a key it holds, nor lower the policy, nor whitelist an
 * address.
 */

/** The activity kind approvers see for each change. */
export const ACTIVITY_KIND_OF: Readonly<Record<ApprovalChangeKind, ActivityKind>> = {
  'approver.created': 'approver_change',
  'approver.deleted': 'approver_change',
  'policy.updated': 'policy_change',
  'address_book.created': 'address_book_change',
  'address_book.deleted': 'address_book_change',
};

export type ApprovalChangeStatus = 'pending' | 'approved' | 'rejected' | 'failed';

/** A row of `approval_changes`. */
export interface ApprovalChangeRecord {
  readonly id: string;
  readonly orgId: string;
  readonly kind: string;
  readonly change: unknown;
  readonly before: unknown;
  readonly status: string;
  readonly activityId: string;
  readonly principalId: string;
  readonly dueAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export function changeView(row: ApprovalChangeRecord): ApprovalChangeDto {
  return {
    id: row.id,
    kind: row.kind as ApprovalChangeKind,
    status: row.status,
    turnkeyActivityId: row.activityId,
    change: row.change as Record<string, unknown>,
    before: (row.before ?? null) as Record<string, unknown> | null,
    principalId: row.principalId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * What the approvers see of a change (and its activity's fingerprint covers): the change itself,
 * and for an address-book entry its chain and address in the destination fields.
 */
export function changeSubject(view: ApprovalChangeDto): ActivitySubject {
  const entry = view.kind.startsWith('address_book.') ? (view.change as { chain?: string; address?: string }) : {};
  return {
    withdrawalId: null,
    withdrawalLegId: null,
    destinationChain: entry.chain ?? null,
    destinationToken: null,
    destinationAddress: entry.address ?? null,
    plannedSourceNativeUnits: null,
    displayAmountNativeUnits: null,
    txChain: null,
    change: view,
  };
}

/**
 * The withdrawals a policy sends to the approvers, compared as sets: `all` holds every amount,
 * `above_threshold` the amounts above its threshold, `none` nothing.
 */
function covers(wider: ApprovalPolicyRecord, narrower: ApprovalPolicyRecord): boolean {
  if (wider.withdrawals === 'all' || narrower.withdrawals === 'none') return true;
  if (wider.withdrawals === 'none' || narrower.withdrawals === 'all') return false;
  // Both above a threshold: the lower threshold asks for more withdrawals.
  return (wider.threshold ?? 0n) <= (narrower.threshold ?? 0n);
}

/**
 * Whether replacing `before` with `after` weakens the protection: some withdrawal `before` sent to
 * the approvers would no longer go to them, or fewer approvers would release an activity. A policy
 * that is not weaker (a stricter mode, a lower threshold, a higher quorum) applies at once.
 */
export function policyWeakens(before: ApprovalPolicyRecord, after: ApprovalPolicyRecord): boolean {
  return !covers(after, before) || after.quorum < before.quorum;
}

/**
 * Whether a change applies at once rather than waiting for the approvers: an organization with no
 * approvers has nobody to ask (the first approver still proves its key), and a policy that is not
 * weaker cannot lower the protection.
 */
export function appliesAtOnce(input: {
  kind: ApprovalChangeKind;
  approvers: number;
  before?: ApprovalPolicyRecord;
  after?: ApprovalPolicyRecord;
}): boolean {
  if (input.approvers === 0) return true;
  return (
    input.kind === 'policy.updated' && input.before !== undefined && input.after !== undefined && !policyWeakens(input.before, input.after)
  );
}

/**
 * Proof of possession of a new approver key: the `X-Stamp` header is `@turnkey/api-key-stamper`'s
 * stamp of the exact request body, by the key the body registers, and the body's `timestampMs` is
 * within 5 minutes of now. Missing: `approver_stamp_required`; anything else wrong:
 * `invalid_approver_stamp`.
 */
export function checkPossession(
  input: { publicKey: string; timestampMs: string; signedBody: string; stamp: string | null },
  now: Date,
): void {
  if (input.stamp === null || input.stamp === '') {
    throw new ServiceError(
      'approver_stamp_required',
      'Registering an approver needs an X-Stamp header: the new key’s stamp (@turnkey/api-key-stamper) over the exact request body.',
    );
  }
  let publicKey: string;
  let signs: boolean;
  try {
    const stamp = parseStamp(input.stamp);
    publicKey = stamp.publicKey;
    signs = stampSigns(stamp, input.signedBody);
  } catch (error) {
    if (error instanceof ServiceError) {
      throw new ServiceError(
        'invalid_approver_stamp',
        'The X-Stamp header is not a stamp of @turnkey/api-key-stamper (base64url JSON {publicKey, scheme, signature}).',
      );
    }
    throw error;
  }
  if (publicKey !== input.publicKey.toLowerCase()) {
    throw new ServiceError(
      'invalid_approver_stamp',
      'The X-Stamp header is made by another key than publicKey: the new approver key must stamp its own registration.',
    );
  }
  if (!signs)
    throw new ServiceError(
      'invalid_approver_stamp',
      'The X-Stamp signature does not verify over the request body: stamp the exact text you send.',
    );
  if (Math.abs(now.getTime() - Number(input.timestampMs)) > STAMP_WINDOW_MS) {
    throw new ServiceError('invalid_approver_stamp', 'timestampMs is more than 5 minutes from now: stamp a fresh registration.');
  }
}
