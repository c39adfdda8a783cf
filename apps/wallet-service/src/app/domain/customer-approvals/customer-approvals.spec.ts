import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { thrownCode } from '@service/errors';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { COMPLETED, CONSENSUS_NEEDED, outcomeOf, REJECTED } from './activities.js';
import { checkPolicy, effectivePolicy, withdrawalNeedsApproval } from './policy.js';
import { parseStamp, publicKeyOf, stampSigns } from './stamp.js';
import { activityFingerprint, canonicalPayload, checkRequest, turnkeyRequestOf } from './turnkey-request.js';

function turnkeyKey(): { publicKey: string; stamper: ApiKeyStamper } {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  const publicKey = ((y[y.length - 1] ?? 0) % 2 === 0 ? '02' : '03') + Buffer.from(jwk.x ?? '', 'base64url').toString('hex');
  return {
    publicKey,
    stamper: new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: Buffer.from(jwk.d ?? '', 'base64url').toString('hex') }),
  };
}

const now = new Date('2026-11-24T08:00:00.000Z');
const request = turnkeyRequestOf({ action: 'approve', organizationId: 'org_a', fingerprint: 'f'.repeat(64), now });

describe('stamps', () => {
  it('verifies what @turnkey/api-key-stamper signs over the canonical request, and nothing else', async () => {
    const key = turnkeyKey();
    const { stampHeaderName, stampHeaderValue } = await key.stamper.stamp(canonicalPayload(request));
    const stamp = parseStamp({ stampHeaderName, stampHeaderValue });
    expect(stamp.publicKey).toBe(key.publicKey);
    expect(parseStamp(stampHeaderValue)).toEqual(stamp);
    expect(stampSigns(stamp, canonicalPayload(request))).toBe(true);
    expect(stampSigns(stamp, canonicalPayload({ ...request, timestampMs: '1' }))).toBe(false);
    expect(stampSigns({ ...stamp, publicKey: turnkeyKey().publicKey }, canonicalPayload(request))).toBe(false);
  });

  it('refuses stamps that are not base64url JSON of the P-256 scheme', () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const key = turnkeyKey().publicKey;
    expect(thrownCode(() => parseStamp('%%%'))).toBe('invalid_stamp');
    expect(
      thrownCode(() => parseStamp(encode({ publicKey: key, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519', signature: 'ab'.repeat(70) }))),
    ).toBe('invalid_stamp');
    expect(
      thrownCode(() => parseStamp(encode({ publicKey: 'nope', scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: 'ab'.repeat(70) }))),
    ).toBe('invalid_stamp');
    expect(thrownCode(() => parseStamp({ stampHeaderName: 'X-Other', stampHeaderValue: 'x' }))).toBe('invalid_stamp');
  });

  it('loads only compressed points of the curve', () => {
    expect(publicKeyOf(turnkeyKey().publicKey)).not.toBeNull();
    expect(publicKeyOf(`02${'0'.repeat(63)}7`)).toBeNull();
    expect(publicKeyOf(`04${'1'.repeat(64)}`)).toBeNull();
  });
});

describe('the Turnkey request', () => {
  it('is canonical JSON in a fixed field order, whatever the order it arrives in', () => {
    const reordered = {
      parameters: { fingerprint: request.parameters.fingerprint },
      organizationId: 'org_a',
      timestampMs: request.timestampMs,
      type: request.type,
    } as typeof request;
    expect(canonicalPayload(reordered)).toBe(JSON.stringify(request));
    expect(canonicalPayload({ ...request, extra: 1 } as typeof request)).toBe(JSON.stringify(request));
  });

  it('must name the action, organization and fingerprint, within 5 minutes', () => {
    const expected = { action: 'approve' as const, organizationId: 'org_a', fingerprint: 'f'.repeat(64), now };
    expect(() => checkRequest(request, expected)).not.toThrow();
    expect(thrownCode(() => checkRequest(request, { ...expected, action: 'reject' }))).toBe('approval_request_mismatch');
    expect(thrownCode(() => checkRequest(request, { ...expected, organizationId: 'org_b' }))).toBe('approval_request_mismatch');
    expect(thrownCode(() => checkRequest(request, { ...expected, fingerprint: 'e'.repeat(64) }))).toBe('approval_request_mismatch');
    expect(thrownCode(() => checkRequest(request, { ...expected, now: new Date(now.getTime() + 300_001) }))).toBe('stale_stamp');
    expect(() => checkRequest(request, { ...expected, now: new Date(now.getTime() + 300_000) })).not.toThrow();
  });

  it('fingerprints each activity apart', () => {
    const subject = { amount: '1' };
    const one = activityFingerprint({ activityId: 'a', organizationId: 'org_a', kind: 'withdrawal_payout', subject });
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(activityFingerprint({ activityId: 'b', organizationId: 'org_a', kind: 'withdrawal_payout', subject })).not.toBe(one);
  });
});

describe('policy and outcome', () => {
  it('falls back to the environment, and parks withdrawals by mode', () => {
    expect(effectivePolicy(null, true)).toMatchObject({ withdrawals: 'all', quorum: 1, updatedAt: null });
    expect(withdrawalNeedsApproval(effectivePolicy(null, false), 10n)).toBe(false);
    const above = { withdrawals: 'above_threshold', threshold: 20_000_000n, quorum: 1, updatedAt: now };
    expect(withdrawalNeedsApproval(above, 20_000_000n)).toBe(false);
    expect(withdrawalNeedsApproval(above, 20_000_001n)).toBe(true);
  });

  it('needs enough approvers for the quorum and a threshold exactly with above_threshold', () => {
    expect(thrownCode(() => checkPolicy({ withdrawals: 'all', threshold: null, quorum: 2 }, 1))).toBe('approval_quorum_unreachable');
    expect(() => checkPolicy({ withdrawals: 'none', threshold: null, quorum: 3 }, 0)).not.toThrow();
    expect(thrownCode(() => checkPolicy({ withdrawals: 'above_threshold', threshold: null, quorum: 1 }, 1))).toBe('validation_error');
    expect(thrownCode(() => checkPolicy({ withdrawals: 'all', threshold: 1n, quorum: 1 }, 1))).toBe('validation_error');
  });

  it('completes on quorum distinct approvals and rejects on one reject', () => {
    expect(outcomeOf([{ action: 'approve' }], 2)).toBe(CONSENSUS_NEEDED);
    expect(outcomeOf([{ action: 'approve' }, { action: 'approve' }], 2)).toBe(COMPLETED);
    expect(outcomeOf([{ action: 'approve' }, { action: 'reject' }], 1)).toBe(REJECTED);
  });
});
