import { type Query, runQuery } from '@service/sql';
import type { BlockedSources } from '../domain/rebalance-plans.js';
import type { WalletDb, WalletTx } from './wallet-sql.js';
import { Writes } from './writes.js';

/**
 * wallet-service's projection of the risk engine's allocation blocks (`risk_allocation_blocks`,
 * `risk_resolved_alerts`), written by the risk events' consumer. Every write converges: a block
 * holds while its action is executed and not lifted, and once lifted stays lifted, whatever order
 * the events come in and however often.
 */

/** The yield sources blocked for a wallet now. */
export function blockedSourcesQuery(walletId: string): Query<BlockedSources> {
  return {
    text: `SELECT DISTINCT yield_source_id AS "yieldSourceId" FROM risk_allocation_blocks
      WHERE wallet_id = $1::uuid AND executed_at IS NOT NULL AND lifted_at IS NULL`,
    values: [walletId],
    read: (rows) => new Set((rows as { yieldSourceId: string }[]).map((row) => row.yieldSourceId)),
  };
}

export function blockedSources(db: WalletDb, walletId: string): Promise<BlockedSources> {
  return runQuery(db, blockedSourcesQuery(walletId));
}

/**
 * Serializes the consumer's transactions about one alert (its action's `executed` and `rejected`,
 * its `resolved`) until commit, so one that reads what the other writes starts after it: two
 * replicas of the consumer never leave a block behind a resolved alert. A statement of its own,
 * so the statements after it see what the other committed.
 */
export async function lockRiskAlert(tx: WalletTx, alertId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended('risk-alert:' || $1::text, 0)) IS NULL AS "locked"`, alertId);
}

export interface BlockingAction {
  readonly actionId: string;
  readonly orgId: string;
  readonly walletId: string;
  readonly yieldSourceId: string;
  readonly riskAlertId: string;
}

/**
 * The action is `executed`: its block holds from `at`, unless its alert is already resolved (then
 * it is recorded lifted at once) or the action was lifted before (a `rejected` seen first).
 */
export async function recordBlockExecuted(tx: WalletTx, action: BlockingAction, at: Date): Promise<void> {
  const writes = new Writes();
  const { bind } = writes;
  const time = bind(at.toISOString(), '::timestamptz');
  writes.add(
    `INSERT INTO risk_allocation_blocks (action_id, org_id, wallet_id, yield_source_id, risk_alert_id, executed_at, lifted_at, lifted_by, updated_at)
     SELECT ${bind(action.actionId, '::uuid')}, ${bind(action.orgId, '::text')}, ${bind(action.walletId, '::uuid')}, ${bind(action.yieldSourceId, '::text')},
            alert.id, ${time}, resolved.resolved_at, CASE WHEN resolved.alert_id IS NULL THEN NULL ELSE 'alert_resolved' END, ${time}
       FROM (SELECT ${bind(action.riskAlertId, '::uuid')} AS id) alert LEFT JOIN risk_resolved_alerts resolved ON resolved.alert_id = alert.id
     ON CONFLICT (action_id) DO UPDATE SET executed_at = COALESCE(risk_allocation_blocks.executed_at, EXCLUDED.executed_at),
            lifted_at = COALESCE(risk_allocation_blocks.lifted_at, EXCLUDED.lifted_at),
            lifted_by = COALESCE(risk_allocation_blocks.lifted_by, EXCLUDED.lifted_by), updated_at = EXCLUDED.updated_at`,
  );
  await writes.run(tx);
}

/** The action is `rejected`: its block, if it ever held, is lifted; if its `executed` comes later, it blocks nothing. */
export async function recordBlockRejected(tx: WalletTx, action: BlockingAction, at: Date): Promise<void> {
  const writes = new Writes();
  const { bind } = writes;
  const time = bind(at.toISOString(), '::timestamptz');
  writes.add(
    `INSERT INTO risk_allocation_blocks (action_id, org_id, wallet_id, yield_source_id, risk_alert_id, executed_at, lifted_at, lifted_by, updated_at)
     VALUES (${bind(action.actionId, '::uuid')}, ${bind(action.orgId, '::text')}, ${bind(action.walletId, '::uuid')}, ${bind(action.yieldSourceId, '::text')},
             ${bind(action.riskAlertId, '::uuid')}, NULL, ${time}, 'action_rejected', ${time})
     ON CONFLICT (action_id) DO UPDATE SET lifted_at = COALESCE(risk_allocation_blocks.lifted_at, EXCLUDED.lifted_at),
            lifted_by = COALESCE(risk_allocation_blocks.lifted_by, EXCLUDED.lifted_by), updated_at = EXCLUDED.updated_at`,
  );
  await writes.run(tx);
}

/** The alert is resolved: remembered, and every block of its actions lifted. One statement. */
export async function recordAlertResolved(tx: WalletTx, alert: { alertId: string; orgId: string }, at: Date): Promise<void> {
  const writes = new Writes();
  const { bind } = writes;
  const time = bind(at.toISOString(), '::timestamptz');
  const alertId = bind(alert.alertId, '::uuid');
  writes.add(
    `INSERT INTO risk_resolved_alerts (alert_id, org_id, resolved_at) VALUES (${alertId}, ${bind(alert.orgId, '::text')}, ${time}) ON CONFLICT DO NOTHING`,
  );
  writes.add(
    `UPDATE risk_allocation_blocks SET lifted_at = ${time}, lifted_by = 'alert_resolved', updated_at = ${time}
      WHERE risk_alert_id = ${alertId} AND lifted_at IS NULL`,
  );
  await writes.run(tx);
}
