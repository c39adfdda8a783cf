import type { Tx } from './db.js';
import type { WalletTx } from './wallet-sql.js';

/** Sandbox: the organization's next payout leg fails retryably (armed again, it stays one failure). */
export async function armPayoutFailure(db: Tx, orgId: string, now: Date): Promise<Date> {
  const row = await db.sandboxPayoutFailure.upsert({ where: { orgId }, create: { orgId, armedAt: now }, update: {} });
  return row.armedAt;
}

/** Consumes the organization's armed failure, if any: true once per arming, whichever replica asks. */
export async function takePayoutFailure(tx: WalletTx, orgId: string): Promise<boolean> {
  return (await tx.$executeRawUnsafe('DELETE FROM sandbox_payout_failures WHERE org_id = $1::text', orgId)) > 0;
}
