import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { thrownCode } from '@service/errors';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { pendingView } from './activities.js';
import { appliesAtOnce, changeSubject, changeView, checkPossession, policyWeakens } from './changes.js';
import type { ApprovalPolicyRecord } from './policy.js';
import { activityFingerprint } from './turnkey-request.js';

function turnkeyKey(): { publicKey: string; stamper: ApiKeyStamper } {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  const publicKey = ((y[y.length - 1] ?? 0) % 2 === 0 ? '02' : '03') + Buffer.from(jwk.x ?? '', 'base64url').toString('hex');
  return {
    publicKey,
    stamper: new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: Buffer.from(jwk.d ?? '', 'base64url').toString('hex') }),
  };
}

const policy = (withdrawals: string, quorum: number, threshold: bigint | null = null): ApprovalPolicyRecord => ({
  withdrawals,
  threshold,
  quorum,
  updatedAt: null,
});
const now = new Date('2026-11-28T12:00:00.000Z');

describe('what weakens a policy', () => {
  it('is fewer withdrawals sent to the approvers or a lower quorum; a stricter mode, a lower threshold or a higher quorum is not', () => {
    const all2 = policy('all', 2);
    expect(policyWeakens(all2, policy('none', 2))).toBe(true);
    expect(policyWeakens(all2, policy('all', 1))).toBe(true);
    expect(policyWeakens(all2, policy('above_threshold', 2, 1n))).toBe(true);
    expect(policyWeakens(all2, policy('all', 3))).toBe(false);
    expect(policyWeakens(all2, all2)).toBe(false);

    const above100 = policy('above_threshold', 2, 100_000_000n);
    expect(policyWeakens(above100, policy('above_threshold', 2, 200_000_000n))).toBe(true);
    expect(policyWeakens(above100, policy('above_threshold', 2, 50_000_000n))).toBe(false);
    expect(policyWeakens(above100, policy('all', 2))).toBe(false);
    expect(policyWeakens(above100, policy('none', 5))).toBe(true);

    const none1 = policy('none', 1);
    expect(policyWeakens(none1, policy('all', 1))).toBe(false);
    expect(policyWeakens(none1, policy('above_threshold', 1, 1n))).toBe(false);
    // The quorum also releases changes and setups: lowering it weakens even without withdrawals to approve.
    expect(policyWeakens(policy('none', 2), policy('none', 1))).toBe(true);
  });

  it('decides what applies at once: everything without approvers, a policy that is not weaker, nothing else', () => {
    expect(appliesAtOnce({ kind: 'approver.created', approvers: 0 })).toBe(true);
    expect(appliesAtOnce({ kind: 'address_book.created', approvers: 0 })).toBe(true);
    expect(appliesAtOnce({ kind: 'approver.created', approvers: 1 })).toBe(false);
    expect(appliesAtOnce({ kind: 'approver.deleted', approvers: 2 })).toBe(false);
    expect(appliesAtOnce({ kind: 'address_book.created', approvers: 1 })).toBe(false);
    expect(appliesAtOnce({ kind: 'address_book.deleted', approvers: 1 })).toBe(false);
    expect(appliesAtOnce({ kind: 'policy.updated', approvers: 2, before: policy('all', 1), after: policy('all', 2) })).toBe(true);
    expect(appliesAtOnce({ kind: 'policy.updated', approvers: 2, before: policy('all', 2), after: policy('none', 2) })).toBe(false);
  });
});

describe('the subject approvers see of a change', () => {
  const row = {
    id: '5b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    orgId: 'org_a',
    kind: 'address_book.created',
    change: { id: 'e1', chain: 'ethereum_sepolia', address: '0xabc', label: 'Treasury' },
    before: null,
    status: 'pending',
    activityId: '7c1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    principalId: 'user_admin',
    dueAt: now,
    createdAt: now,
    updatedAt: now,
  };

  it('names the change and its address, is listed without a wallet, and its fingerprint covers the change', () => {
    const subject = changeSubject(changeView(row));
    expect(subject).toMatchObject({
      destinationChain: 'ethereum_sepolia',
      destinationAddress: '0xabc',
      txChain: null,
      change: { kind: 'address_book.created', change: row.change },
    });
    const activity = {
      id: row.activityId,
      orgId: row.orgId,
      walletId: null,
      kind: 'address_book_change',
      withdrawalId: null,
      legId: null,
      setupId: null,
      changeId: row.id,
      status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
      fingerprint: 'f',
      quorum: 1,
      subject,
      validBefore: now,
      createdAt: now,
    };
    expect(pendingView(activity)).toMatchObject({
      activityKind: 'address_book_change',
      portfolioWalletId: null,
      change: expect.objectContaining({ id: row.id, turnkeyActivityId: row.activityId }),
    });
    const fingerprint = (subject: object) =>
      activityFingerprint({ activityId: row.activityId, organizationId: row.orgId, kind: 'address_book_change', subject });
    const other = changeSubject(changeView({ ...row, change: { ...row.change, address: '0xdef' } }));
    expect(fingerprint(subject)).not.toBe(fingerprint(other));
  });
});

describe('proof of possession of a new approver key', () => {
  it('takes the new key’s stamp over the exact body with a fresh timestamp, and nothing else', async () => {
    const key = turnkeyKey();
    const body = JSON.stringify({ label: 'k', publicKey: key.publicKey, timestampMs: String(now.getTime()) });
    const { stampHeaderValue } = await key.stamper.stamp(body);
    const input = { publicKey: key.publicKey, timestampMs: String(now.getTime()), signedBody: body, stamp: stampHeaderValue };
    expect(() => checkPossession(input, now)).not.toThrow();
    expect(() => checkPossession({ ...input, publicKey: key.publicKey.toUpperCase() }, now)).not.toThrow();
    expect(thrownCode(() => checkPossession({ ...input, stamp: null }, now))).toBe('approver_stamp_required');
    expect(thrownCode(() => checkPossession({ ...input, stamp: 'not a stamp' }, now))).toBe('invalid_approver_stamp');
    expect(thrownCode(() => checkPossession({ ...input, signedBody: `${body} ` }, now))).toBe('invalid_approver_stamp');
    expect(thrownCode(() => checkPossession(input, new Date(now.getTime() + 5 * 60_000 + 1)))).toBe('invalid_approver_stamp');
    const other = turnkeyKey();
    const foreign = (await other.stamper.stamp(body)).stampHeaderValue;
    expect(thrownCode(() => checkPossession({ ...input, stamp: foreign }, now))).toBe('invalid_approver_stamp');
  });
});
