import type { EventPayloadOf, PortfolioWalletEventPayload, PortfolioWalletEventType, PortfolioWalletResources } from '@service/contracts';
import { enqueueEvent } from '@service/events';
import type { Tx } from './db.js';

export interface EventScope {
  readonly orgId: string;
  readonly walletId: string;
  readonly observedAt: Date;
}

/**
 * The outbox writer: a portfolio wallet event in the caller's transaction, in the webhook body
 * shape `{event, observedAt, walletId, <resource>}`.
 */
export function emitWalletEvent<T extends PortfolioWalletEventType>(tx: Tx, scope: EventScope, type: T, resource: PortfolioWalletResources[T]): Promise<string> {
  const payload: PortfolioWalletEventPayload<T> = { event: type, observedAt: scope.observedAt.toISOString(), walletId: scope.walletId, ...resource };
  // The same type as EventPayloadOf<T> for every T here; TypeScript cannot relate the two for an open T.
  return enqueueEvent(tx, { type, orgId: scope.orgId, payload: payload as unknown as EventPayloadOf<T> });
}
