import { ServiceError } from '@service/errors';
import type { KeyClaim, Operation } from '../domain/idempotency.js';
import type { Tx } from './db.js';

/**
 * Claims `requestId` for this organization and operation inside the caller's transaction. A
 * concurrent duplicate waits on the primary key until the first commits (then sees its row) or
 * rolls back (then claims the key itself), so one request id makes one resource. The same id
 * with another payload is `request_id_conflict`.
 */
export async function claimRequestId(
  tx: Tx,
  key: { orgId: string; operation: Operation; requestId: string; fingerprint: string; resourceId: string },
): Promise<KeyClaim> {
  const inserted = await tx.$executeRaw`
    INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
    VALUES (${key.orgId}, ${key.operation}, ${key.requestId}::uuid, ${key.fingerprint}, ${key.resourceId}::uuid)
    ON CONFLICT DO NOTHING`;
  if (inserted === 1) return { fresh: true };
  const existing = await tx.idempotencyKey.findUniqueOrThrow({
    where: { orgId_operation_requestId: { orgId: key.orgId, operation: key.operation, requestId: key.requestId } },
  });
  if (existing.fingerprint !== key.fingerprint) {
    throw new ServiceError('request_id_conflict', `requestId ${key.requestId} was already used with a different request.`);
  }
  return { fresh: false, resourceId: existing.resourceId, response: existing.response };
}

/** Keeps the answer a replay must repeat exactly. */
export async function rememberResponse(tx: Tx, key: { orgId: string; operation: Operation; requestId: string }, response: object): Promise<void> {
  await tx.idempotencyKey.update({
    where: { orgId_operation_requestId: key },
    data: { response: response as never },
  });
}
