import { describe, expect, it } from '@jest/globals';
import { type Role, SUBJECTS } from '@service/contracts';
import { requireRole } from '@service/service-runtime';
import { expiryOf, isRollable, isUsable, requireMayGrant, requireOrgId, rolledEndOf, successorExpiryOf } from './key-rules.js';

const now = new Date('2026-11-24T10:00:00.000Z');
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('who manages keys', () => {
  it.each(
    Object.values(SUBJECTS.identity).filter(
      (subject) => subject.startsWith('identity.api-keys.') && subject !== SUBJECTS.identity.apiKeysAuthenticate,
    ),
  )('lets owners and admins manage keys and refuses members (%s)', (subject) => {
    expect(() => requireRole(subject, 'owner')).not.toThrow();
    expect(() => requireRole(subject, 'admin')).not.toThrow();
    expect(() => requireRole(subject, 'member')).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });

  it.each<[Role, Role, boolean]>([
    ['owner', 'owner', true],
    ['owner', 'admin', true],
    ['owner', 'member', true],
    ['admin', 'owner', false],
    ['admin', 'admin', true],
    ['admin', 'member', true],
    ['member', 'member', false],
  ])('a %s may grant a %s key: %s', (caller, key, allowed) => {
    const attempt = () => requireMayGrant(caller, key);
    if (allowed) expect(attempt).not.toThrow();
    else expect(attempt).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });
});

describe('expiry', () => {
  it('has none unless given, and refuses one that is not in the future', () => {
    expect(expiryOf(undefined, now)).toBeNull();
    expect(expiryOf(later(60).toISOString(), now)).toEqual(later(60));
    expect(() => expiryOf(now.toISOString(), now)).toThrow(expect.objectContaining({ code: 'validation_error' }));
    expect(() => expiryOf('2020-01-01T00:00:00Z', now)).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });

  it('ends a rolled key at once, or after its grace period but never later than it would have', () => {
    expect(rolledEndOf(null, 0, now)).toEqual({ revokedAt: now });
    expect(rolledEndOf(null, 3600, now)).toEqual({ expiresAt: later(3600) });
    expect(rolledEndOf(later(60), 3600, now)).toEqual({ expiresAt: later(60) });
    expect(successorExpiryOf(later(60))).toEqual(later(60));
    expect(successorExpiryOf(null)).toBeNull();
  });

  it('rolls a key once, and only while it works', () => {
    expect(isRollable({ revokedAt: null, expiresAt: null, successorId: null }, now)).toBe(true);
    expect(isRollable({ revokedAt: null, expiresAt: later(1), successorId: null }, now)).toBe(true);
    expect(isRollable({ revokedAt: null, expiresAt: later(-1), successorId: null }, now)).toBe(false);
    expect(isRollable({ revokedAt: null, expiresAt: now, successorId: null }, now)).toBe(false);
    expect(isRollable({ revokedAt: now, expiresAt: null, successorId: null }, now)).toBe(false);
    expect(isRollable({ revokedAt: null, expiresAt: later(60), successorId: '0b8f7a4e-0000-4000-8000-000000000002' }, now)).toBe(false);
  });

  it('stores keys only for a well-formed organization id', () => {
    expect(() => requireOrgId('org_demo')).not.toThrow();
    for (const orgId of ['*', 'org.a', 'org >', ''])
      expect(() => requireOrgId(orgId)).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });

  it('uses a key until it is revoked or expires', () => {
    expect(isUsable({ revokedAt: null, expiresAt: null }, now)).toBe(true);
    expect(isUsable({ revokedAt: null, expiresAt: later(1) }, now)).toBe(true);
    expect(isUsable({ revokedAt: null, expiresAt: now }, now)).toBe(false);
    expect(isUsable({ revokedAt: now, expiresAt: null }, now)).toBe(false);
  });
});
