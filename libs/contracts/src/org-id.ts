/**
 * The one format of an organization id, checked wherever one enters the platform (the gateway's
 * token claims and API-key lookups, the operator CLI, identity-service when it stores a key):
 * 1 to 128 characters of `A-Z a-z 0-9 _ -`. It leaves out `*` (`ALL_ORGANIZATIONS`, the internal
 * "every organization" of shared events) and every character that means something in a NATS
 * subject or a log line (`.`, `>`, spaces, control characters).
 */
export const ORG_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** What an organization id looks like, for error messages and documentation. */
export const ORG_ID_FORMAT = '1 to 128 characters of A-Z a-z 0-9 _ -';

export function isOrgId(value: unknown): value is string {
  return typeof value === 'string' && ORG_ID_PATTERN.test(value);
}
