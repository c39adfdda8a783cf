import type { EventPayloadOf, PortfolioWalletEventPayload, PortfolioWalletEventType, PortfolioWalletResources } from '@service/contracts';
import { type NewEvent, outboxInsert } from '@service/events';
import type { Writes } from './writes.js';

export interface EventScope {
  readonly orgId: string;
  readonly walletId: string;
  readonly observedAt: Date;
}

/**
 * The outbox writer: a portfolio wallet event in the webhook body shape
 * `{event, observedAt, walletId, <resource>}`, as one of the statement's `writes`.
 */
export function addWalletEvent<T extends PortfolioWalletEventType>(writes: Writes, scope: EventScope, type: T, resource: PortfolioWalletResources[T]): string {
  const { sql, id } = outboxInsert(writes.bind, walletEvent(scope, type, resource));
  writes.add(sql);
  return id;
}

function walletEvent<T extends PortfolioWalletEventType>(scope: EventScope, type: T, resource: PortfolioWalletResources[T]): NewEvent<T> {
  const payload: PortfolioWalletEventPayload<T> = { event: type, observedAt: scope.observedAt.toISOString(), walletId: scope.walletId, ...resource };
  // The same type as EventPayloadOf<T> for every T here; TypeScript cannot relate the two for an open T.
  return { type, orgId: scope.orgId, payload: payload as unknown as EventPayloadOf<T> };
}
