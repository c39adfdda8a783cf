import { isOrgId, ORG_ID_FORMAT, type Role, SUBJECTS } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { requireRole } from '@service/service-runtime';

/**
 * Who may do what with API keys, and when a key works. Pure rules: no clock but the one passed in.
 */

/**
 * A caller may create, roll or revoke a key of `keyRole` only when it may manage keys at all (the
 * rule of the api-keys subjects in `SUBJECT_ROLES`: owners and admins) and holds at least that much:
 * an admin cannot create an owner key (nor roll or revoke one, which would hand it a new owner
 * key or lock the owners' integrations out).
 */
export function requireMayGrant(callerRole: Role, keyRole: Role): void {
  requireRole(SUBJECTS.identity.apiKeysCreate, callerRole);
  if (keyRole === 'owner' && callerRole !== 'owner') {
    throw new ServiceError('forbidden', 'Only an organization owner may create or manage an owner key.');
  }
}

/** A key is stored only for a well-formed organization id (never `*`, the internal "every organization"). */
export function requireOrgId(orgId: string): void {
  if (!isOrgId(orgId)) throw new ServiceError('validation_error', `The organization id must be ${ORG_ID_FORMAT}.`);
}

/** The expiry of a new key: absent is never; given, it must be in the future. */
export function expiryOf(expiresAt: string | undefined, now: Date): Date | null {
  if (expiresAt === undefined) return null;
  const at = new Date(expiresAt);
  if (Number.isNaN(at.getTime())) throw new ServiceError('validation_error', 'expiresAt must be an ISO 8601 date-time.');
  if (at.getTime() <= now.getTime()) throw new ServiceError('validation_error', 'expiresAt must be in the future.');
  return at;
}

/** What rolling does to the old key: revoked at once, or expiring after the grace period (never later than it would have). */
export type RolledEnd = { readonly revokedAt: Date } | { readonly expiresAt: Date };

export function rolledEndOf(currentExpiry: Date | null, graceSeconds: number, now: Date): RolledEnd {
  if (graceSeconds <= 0) return { revokedAt: now };
  const end = new Date(now.getTime() + graceSeconds * 1000);
  return { expiresAt: currentExpiry && currentExpiry < end ? currentExpiry : end };
}

/**
 * The successor's expiry: the old key's (a key made to stop on a date keeps that date through
 * rolls; only a key still working is rolled, so that date is ahead).
 */
export function successorExpiryOf(currentExpiry: Date | null): Date | null {
  return currentExpiry;
}

/**
 * A key is rolled once, and only while it works: an expired key would otherwise get a successor
 * that never expires, and a key rolled with a grace period a second (third...) successor.
 */
export function isRollable(
  key: { readonly revokedAt: Date | null; readonly expiresAt: Date | null; readonly successorId: string | null },
  now: Date,
): boolean {
  return key.successorId === null && isUsable(key, now);
}

/** A key works until it is revoked or its expiry passes. */
export function isUsable(key: { readonly revokedAt: Date | null; readonly expiresAt: Date | null }, now: Date): boolean {
  return key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now.getTime());
}
