import { describe, expect, it } from '@jest/globals';
import { ERROR_STATUS, ServiceError, statusOf, toHttpErrorBody, toRpcError, isRpcErrorPayload, thrownCode } from './index.js';

describe('error codes', () => {
  it('knows every stable code of the interface with its architecture status', () => {
    const spec = `validation_error unknown_parameters unsupported_chain unsupported_token invalid_destination_address
      precision_overflow invalid_cursor unauthenticated forbidden wallet_not_found wallet_limit_reached withdrawal_not_found
      deposit_not_found yield_source_not_found wallet_projection_unavailable insufficient_funds duplicate_request_id
      request_id_conflict invalid_position_weight invalid_withdrawal_plan payout_not_found webhook_not_found
      webhook_duplicate_url withdrawal_not_cancellable withdrawal_already_cancelled withdrawal_payout_in_progress
      withdrawal_policy_required workflow_conflict payout_already_terminal payout_in_progress payout_not_retryable
      address_book_entry_not_found address_book_duplicate_entry address_book_whitelist_violation rate_limited
      rate_limit_exceeded internal_error wallet_creation_failed service_temporarily_unavailable operation_not_supported`
      .split(/\s+/)
      .filter(Boolean);
    // Codes of what the interface leaves open, added by the architecture (API keys: issue 16;
    // customer approvals: issue 15).
    const approvals = `approval_quorum_unreachable invalid_stamp stale_stamp approver_not_authorized approval_request_mismatch
      approver_not_found activity_not_found approver_duplicate_key approval_already_voted approval_expired approvers_required
      approval_flow_changed approver_stamp_required invalid_approver_stamp`.split(/\s+/);
    // The gateway's refusal of an oversized body (issue 36); the cap on webhook registrations (issue 41).
    // The risk engine (issue 39).
    const risk = ['risk_rule_not_found', 'risk_action_not_found', 'risk_action_not_pending', 'yield_source_blocked'];
    const added = ['api_key_not_found', 'request_too_large', 'webhook_limit_reached', ...approvals, ...risk];
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...spec, ...added].sort());
    expect(statusOf('api_key_not_found')).toBe(404);
    expect(statusOf('invalid_stamp')).toBe(401);
    expect(statusOf('approval_flow_changed')).toBe(410);
    expect(statusOf('request_too_large')).toBe(413);
    expect(statusOf('operation_not_supported')).toBe(409);
    expect(statusOf('wallet_projection_unavailable')).toBe(503);
    expect(statusOf('vault_not_found')).toBe(404);
    expect(statusOf('microvaults_not_enabled')).toBe(403);
    expect(statusOf('risk_rule_not_found')).toBe(404);
    expect(statusOf('risk_action_not_pending')).toBe(409);
    expect(statusOf('yield_source_blocked')).toBe(409);
  });
});

describe('toRpcError', () => {
  it('keeps a ServiceError and marks unavailability retryable', () => {
    expect(toRpcError(new ServiceError('wallet_not_found', 'Wallet not found.'))).toEqual({
      status: 404,
      code: 'wallet_not_found',
      message: 'Wallet not found.',
    });
    expect(toRpcError(new ServiceError('service_temporarily_unavailable', 'down'))).toEqual({
      status: 503,
      code: 'service_temporarily_unavailable',
      message: 'down',
      retryable: true,
    });
  });

  it('hides the detail of unknown exceptions', () => {
    const payload = toRpcError(new Error('connect ECONNREFUSED db.internal:5432'));
    expect(payload).toEqual({ status: 500, code: 'internal_error', message: 'An unexpected error occurred.' });
  });

  it('recognises only well-formed payloads', () => {
    expect(isRpcErrorPayload({ status: 404, code: 'wallet_not_found', message: 'x' })).toBe(true);
    expect(isRpcErrorPayload({ status: 404, code: 'nope', message: 'x' })).toBe(false);
    expect(isRpcErrorPayload('wallet_not_found')).toBe(false);
  });
});

describe('toHttpErrorBody', () => {
  it('uses the family shapes of the interface', () => {
    expect(toHttpErrorBody({ status: 404, code: 'webhook_not_found', message: 'Webhook not found.' })).toEqual({
      error: 'Webhook not found.',
      code: 'webhook_not_found',
    });
    expect(toHttpErrorBody({ status: 401, code: 'unauthenticated', message: 'Token expired.' })).toEqual({
      error: 'Unauthorized',
      message: 'Token expired.',
      code: 'unauthenticated',
    });
    expect(toHttpErrorBody({ status: 503, code: 'service_temporarily_unavailable', message: 'later' })).toEqual({
      error: 'later',
      code: 'service_temporarily_unavailable',
      retryable: true,
    });
    expect(toHttpErrorBody({ status: 400, code: 'invalid_request', message: 'Targets total 9000, not 10000.' })).toEqual({
      error: 'invalid_request',
      message: 'Targets total 9000, not 10000.',
    });
  });

  it('passes the details of an error beside error and code, which they never replace', () => {
    const error = new ServiceError('insufficient_funds', 'Too much.', { balance: { totalUsd: '1.000000' }, code: 'other', error: 'other' });
    const payload = toRpcError(error);
    expect(payload).toEqual({ status: 409, code: 'insufficient_funds', message: 'Too much.', details: error.details });
    expect(isRpcErrorPayload(payload)).toBe(true);
    expect(isRpcErrorPayload({ ...payload, details: 'text' })).toBe(false);
    expect(toHttpErrorBody(payload)).toEqual({ error: 'Too much.', code: 'insufficient_funds', balance: { totalUsd: '1.000000' } });
  });
});

describe('thrownCode', () => {
  it('names the code of a ServiceError, the text of another error, and nothing when nothing is thrown', () => {
    expect(
      thrownCode(() => {
        throw new ServiceError('wallet_not_found', 'gone');
      }),
    ).toBe('wallet_not_found');
    expect(
      thrownCode(() => {
        throw new Error('boom');
      }),
    ).toBe('Error: boom');
    expect(thrownCode(() => 1)).toBeUndefined();
  });
});
