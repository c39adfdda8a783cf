import type { AnyDomainEvent } from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { Logger } from 'pino';
import { fingerprint } from '../domain/idempotency.js';
import { planExit } from '../domain/rebalance-plans.js';
import { type ExitAction, riskEffectOf } from '../domain/risk-events.js';
import type { Strategy } from '../domain/strategy.js';
import type { WalletEnvironment } from '../environment/wallet-environment.js';
import { addNewRebalance } from '../rebalances/rebalance-changes.js';
import { addResponse, lockWalletAndClaimThenAlso } from '../repositories/idempotency-keys.repository.js';
import { ledgerQuery } from '../repositories/positions.repository.js';
import {
  blockedSourcesQuery,
  lockRiskAlert,
  recordAlertResolved,
  recordBlockExecuted,
  recordBlockRejected,
} from '../repositories/risk-blocks.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { Writes } from '../repositories/writes.js';

/** What applying a risk event did: `wrote` when the transaction wrote a rebalance (events to publish, work due). */
export interface RiskApplied {
  readonly wrote: boolean;
}

/**
 * Applies one risk event to wallet-service's projection, inside the consumer's transaction that
 * also records the event as processed (so a redelivery is not applied again); every write also
 * converges by itself (a block once lifted stays lifted; an exit is claimed once per action id).
 */
export async function applyRiskEvent(
  tx: WalletTx,
  event: AnyDomainEvent,
  input: { env: WalletEnvironment; logger: Logger; now: Date },
): Promise<RiskApplied> {
  const { logger, now } = input;
  const effect = riskEffectOf(event);
  switch (effect.kind) {
    case 'none':
      return { wrote: false };
    case 'malformed':
      // Retrying cannot fix the payload; it is recorded as processed so it does not block the stream.
      logger.error({ eventId: event.id, type: event.type, reason: effect.reason }, 'skipping a malformed risk event');
      return { wrote: false };
    case 'block':
      await lockRiskAlert(tx, effect.action.riskAlertId);
      await recordBlockExecuted(tx, effect.action, now);
      return { wrote: false };
    case 'unblock':
      await lockRiskAlert(tx, effect.action.riskAlertId);
      await recordBlockRejected(tx, effect.action, now);
      return { wrote: false };
    case 'alert_resolved':
      await lockRiskAlert(tx, effect.alertId);
      await recordAlertResolved(tx, effect, now);
      return { wrote: false };
    case 'exit':
      return { wrote: await startExit(tx, effect.action, input) };
  }
}

/**
 * An `exit_position` action is `executing`: the rebalance redeeming the whole available position
 * in its source ({@link planExit}), whose `requestId` is the action id, so its
 * `rebalance.status_changed` events tell risk-service how the exit went. Once per action: the
 * idempotency key `(orgId, risk.exit, actionId)` is claimed under the wallet's lock. With nothing
 * available in the source the rebalance has no allocations and completes at its next step, so the
 * action still learns its outcome. A wallet that is not there (or not the organization's) exits
 * nothing. True when it wrote a rebalance.
 */
async function startExit(tx: WalletTx, action: ExitAction, input: { env: WalletEnvironment; logger: Logger; now: Date }): Promise<boolean> {
  const { env, logger, now } = input;
  const key = { orgId: action.orgId, operation: 'risk.exit' as const, requestId: action.actionId };
  let locked;
  try {
    locked = await lockWalletAndClaimThenAlso(
      tx,
      action.walletId,
      { ...key, fingerprint: fingerprint({ walletId: action.walletId, yieldSourceId: action.yieldSourceId }), resourceId: action.walletId },
      ledgerQuery(action.walletId, env, now),
      blockedSourcesQuery(action.walletId),
    );
  } catch (error) {
    if (error instanceof ServiceError && (error.code === 'wallet_not_found' || error.code === 'request_id_conflict')) {
      logger.warn({ actionId: action.actionId, walletId: action.walletId, code: error.code }, 'risk exit not run');
      return false;
    }
    throw error;
  }
  const { wallet, claim, then: ledger, also: blocked } = locked;
  if (!claim.fresh) return false;
  const moves = planExit(wallet.strategy as Strategy, action.yieldSourceId, ledger.available(action.yieldSourceId), env, blocked);
  const writes = new Writes();
  const row = addNewRebalance(writes, { wallet, ledger, moves, requestId: action.actionId, now, exitSource: action.yieldSourceId });
  addResponse(writes, key, { rebalanceId: row.id });
  await writes.run(tx);
  logger.info({ actionId: action.actionId, walletId: wallet.id, rebalanceId: row.id, legs: moves.length }, 'risk exit rebalance created');
  return true;
}
