import { ServiceError } from '@service/errors';
import { type Query, runQueries, runQuery } from '@service/sql';
import type { WalletTx } from './wallet-sql.js';
import type { Wallet } from '../../generated/prisma/client.js';
import { walletNotFound } from '../domain/errors.js';
import type { KeyClaim, Operation } from '../domain/idempotency.js';
import { WALLET_COLUMNS } from './wallets.repository.js';
import { Writes } from './writes.js';

/**
 * Claims `requestId` for this organization and operation inside the caller's transaction. A
 * concurrent duplicate waits on the primary key until the first commits (then sees its row) or
 * rolls back (then claims the key itself), so one request id makes one resource. The same id
 * with another payload is `request_id_conflict`.
 */
export async function claimRequestId(tx: WalletTx, key: ClaimedKey): Promise<KeyClaim> {
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
     VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING`,
    key.orgId,
    key.operation,
    key.requestId,
    key.fingerprint,
    key.resourceId,
  );
  return inserted === 1 ? { fresh: true } : existingClaim(tx, key);
}

type ClaimedKey = { orgId: string; operation: Operation; requestId: string; fingerprint: string; resourceId: string };

/**
 * {@link lockWallet} and {@link claimRequestId} in one statement: one round trip fewer while the
 * wallet is locked. The key is claimed first (a concurrent duplicate waits on it, as above), then
 * the wallet row is locked; a wallet that is not there throws, and the rollback frees the key.
 */
export async function lockWalletAndClaim(tx: WalletTx, walletId: string, key: ClaimedKey): Promise<{ wallet: Wallet; claim: KeyClaim }> {
  return claimed(tx, walletId, key, await runQuery(tx, claimAndLock(walletId, key)));
}

/**
 * {@link lockWalletAndClaim} and `then`, a read of what the lock guards, in one round trip where
 * `tx` pipelines: the read starts once the lock is held, so it sees what the lock's previous
 * holder committed. A replay reads it for nothing.
 */
export async function lockWalletAndClaimThen<T>(
  tx: WalletTx,
  walletId: string,
  key: ClaimedKey,
  then: Query<T>,
): Promise<{ wallet: Wallet; claim: KeyClaim; then: T }> {
  const [row, read] = await runQueries(tx, [claimAndLock(walletId, key), then]);
  return { ...(await claimed(tx, walletId, key, row)), then: read };
}

/** {@link lockWalletAndClaimThen} with a second read, `also`, in the same round trip. */
export async function lockWalletAndClaimThenAlso<T, U>(
  tx: WalletTx,
  walletId: string,
  key: ClaimedKey,
  then: Query<T>,
  also: Query<U>,
): Promise<{ wallet: Wallet; claim: KeyClaim; then: T; also: U }> {
  const [row, read, alsoRead] = await runQueries(tx, [claimAndLock(walletId, key), then, also]);
  return { ...(await claimed(tx, walletId, key, row)), then: read, also: alsoRead };
}

type ClaimRow = Wallet & { fresh: boolean };

async function claimed(
  tx: WalletTx,
  walletId: string,
  key: ClaimedKey,
  row: ClaimRow | undefined,
): Promise<{ wallet: Wallet; claim: KeyClaim }> {
  if (!row) throw walletNotFound(walletId);
  const { fresh, ...wallet } = row;
  return { wallet, claim: fresh ? { fresh: true } : await existingClaim(tx, key) };
}

function claimAndLock(walletId: string, key: ClaimedKey): Query<ClaimRow | undefined> {
  return {
    text: `WITH claim AS (
       INSERT INTO idempotency_keys (org_id, operation, request_id, fingerprint, resource_id)
       VALUES ($1, $2, $3::uuid, $4, $5::uuid) ON CONFLICT DO NOTHING RETURNING 1)
     SELECT ${WALLET_COLUMNS}, EXISTS (SELECT 1 FROM claim) AS fresh FROM wallets w WHERE w.id = $6::uuid AND w.org_id = $1 FOR UPDATE OF w`,
    values: [key.orgId, key.operation, key.requestId, key.fingerprint, key.resourceId, walletId],
    read: (rows) => (rows as ClaimRow[])[0],
  };
}

/** The key another request claimed: its resource and answer, or `request_id_conflict` for another payload. */
async function existingClaim(tx: WalletTx, key: ClaimedKey): Promise<KeyClaim> {
  const [existing] = await tx.$queryRawUnsafe<{ fingerprint: string; resourceId: string; response: unknown }[]>(
    `SELECT fingerprint, resource_id::text AS "resourceId", response FROM idempotency_keys WHERE org_id = $1 AND operation = $2 AND request_id = $3::uuid`,
    key.orgId,
    key.operation,
    key.requestId,
  );
  if (!existing) throw new Error(`idempotency key ${key.requestId} neither inserted nor found`);
  if (existing.fingerprint !== key.fingerprint) {
    throw new ServiceError('request_id_conflict', `requestId ${key.requestId} was already used with a different request.`);
  }
  return { fresh: false, resourceId: existing.resourceId, response: existing.response };
}

/** Keeps the answer a replay must repeat exactly. */
export async function rememberResponse(
  tx: WalletTx,
  key: { orgId: string; operation: Operation; requestId: string },
  response: object,
): Promise<void> {
  const writes = new Writes();
  addResponse(writes, key, response);
  await writes.run(tx);
}

/** {@link rememberResponse} as part of the statement's `writes`. */
export function addResponse(writes: Writes, key: { orgId: string; operation: Operation; requestId: string }, response: object): void {
  const { bind } = writes;
  writes.add(
    `UPDATE idempotency_keys SET response = ${bind(JSON.stringify(response), '::jsonb')}
      WHERE org_id = ${bind(key.orgId, '::text')} AND operation = ${bind(key.operation, '::text')} AND request_id = ${bind(key.requestId, '::uuid')}`,
  );
}
