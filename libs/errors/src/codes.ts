/**
 * Every stable error code of the interface, with the HTTP status fixed by the architecture card.
 * `code` values are a public contract: never rename one, only add.
 */
export const ERROR_STATUS = {
  validation_error: 400,
  unknown_parameters: 400,
  unsupported_chain: 400,
  unsupported_token: 400,
  invalid_destination_address: 400,
  precision_overflow: 400,
  invalid_cursor: 400,
  invalid_position_weight: 400,
  invalid_withdrawal_plan: 400,
  /** An approval policy whose quorum exceeds the organization's approvers. */
  approval_quorum_unreachable: 400,
  /** Registering an approver needs an `X-Stamp` header by the new key over the exact request body. */
  approver_stamp_required: 400,
  /** The registration's `X-Stamp` cannot be read, is by another key than `publicKey`, does not verify over the body, or its `timestampMs` is more than 5 minutes from now. */
  invalid_approver_stamp: 400,
  unauthenticated: 401,
  /** Customer approvals: a stamp that cannot be read or whose signature does not verify over the request. */
  invalid_stamp: 401,
  /** The stamped request's `timestampMs` is more than 5 minutes from now. */
  stale_stamp: 401,
  forbidden: 403,
  withdrawal_policy_required: 403,
  address_book_whitelist_violation: 403,
  /** Customer approvals: the stamp's key is not a current approver of the activity's organization. */
  approver_not_authorized: 403,
  /** The stamped request names another activity (fingerprint) or organization, or another action. */
  approval_request_mismatch: 403,
  wallet_not_found: 404,
  withdrawal_not_found: 404,
  deposit_not_found: 404,
  yield_source_not_found: 404,
  payout_not_found: 404,
  webhook_not_found: 404,
  address_book_entry_not_found: 404,
  /** API keys (identity-service): an unknown key id, another organization's or a revoked one. */
  api_key_not_found: 404,
  approver_not_found: 404,
  /** An unknown pending activity, or another organization's. */
  activity_not_found: 404,
  /** An unknown risk rule, a deleted one, or another organization's. */
  risk_rule_not_found: 404,
  /** An unknown risk action, or another organization's. */
  risk_action_not_found: 404,
  webhook_duplicate_url: 409,
  /** The organization holds the most webhook registrations of the family (issue 41). */
  webhook_limit_reached: 409,
  duplicate_request_id: 409,
  request_id_conflict: 409,
  workflow_conflict: 409,
  insufficient_funds: 409,
  /**
   * Allocate (or its preview) into a yield source that a risk action blocks for the wallet (`prevent_additional_allocation`,
   * executed, its alert still ongoing); what the wallet already holds there stays.
   */
  yield_source_blocked: 409,
  operation_not_supported: 409,
  withdrawal_not_cancellable: 409,
  withdrawal_already_cancelled: 409,
  withdrawal_payout_in_progress: 409,
  payout_already_terminal: 409,
  payout_in_progress: 409,
  payout_not_retryable: 409,
  address_book_duplicate_entry: 409,
  wallet_limit_reached: 409,
  approver_duplicate_key: 409,
  /** This approver has already voted on the activity. */
  approval_already_voted: 409,
  /** The activity's `approvalValidBefore` has passed. */
  approval_expired: 409,
  /** A Stellar deposit-address setup needs approvers (`POST /v2/approvals/approvers`) first. */
  approvers_required: 409,
  /** Approving or rejecting a risk action that is no longer `pending_approval`. */
  risk_action_not_pending: 409,
  /** The old role-based payout approve route: approvals are stamped votes now. */
  approval_flow_changed: 410,
  /** A request body past the gateway's size limit, refused before it is read. */
  request_too_large: 413,
  rate_limited: 429,
  rate_limit_exceeded: 429,
  internal_error: 500,
  wallet_creation_failed: 500,
  service_temporarily_unavailable: 503,
  wallet_projection_unavailable: 503,
} as const;

/**
 * MicroVault errors use another body: `{error: <code>, message}` with no `code` field.
 */
export const MICROVAULT_ERROR_STATUS = {
  invalid_request: 400,
  microvaults_not_enabled: 403,
  vault_not_found: 404,
  task_not_found: 404,
  idempotency_key_conflict: 409,
} as const;

export type StandardErrorCode = keyof typeof ERROR_STATUS;
export type MicroVaultErrorCode = keyof typeof MICROVAULT_ERROR_STATUS;
export type ErrorCode = StandardErrorCode | MicroVaultErrorCode;

/** Codes whose 503 answer tells the client to retry with the same request id. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['service_temporarily_unavailable', 'wallet_projection_unavailable']);

export function isMicroVaultErrorCode(code: string): code is MicroVaultErrorCode {
  return Object.hasOwn(MICROVAULT_ERROR_STATUS, code);
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code) || isMicroVaultErrorCode(code);
}

export function statusOf(code: ErrorCode): number {
  return isMicroVaultErrorCode(code) ? MICROVAULT_ERROR_STATUS[code] : ERROR_STATUS[code];
}

export function isRetryable(code: ErrorCode): boolean {
  return RETRYABLE.has(code);
}
