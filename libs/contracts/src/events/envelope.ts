import type { GTokenEventData, InternalEventPayloads, PortfolioWalletEventPayload } from './payloads.js';
import type { DomainEventType, GTokenEventType, InternalEventType, PortfolioWalletEventType } from './types.js';

/**
 * The payload each event type carries in the outbox and on the stream: a portfolio wallet event
 * is already the webhook body `{event, observedAt, walletId, <resource>}`; a gtoken event is the
 * `data` of its delivery envelope; an internal event (no webhook delivers it) carries its own
 * payload. The outbox write (`enqueueEvent`) and every consumer's handler take their types from here.
 */
export type EventPayloads = { [T in PortfolioWalletEventType]: PortfolioWalletEventPayload<T> } & {
  [T in GTokenEventType]: GTokenEventData[T];
} & { [T in InternalEventType]: InternalEventPayloads[T] };
export type EventPayloadOf<T extends DomainEventType> = EventPayloads[T];

/**
 * What travels on the JetStream stream of domain events. `id` is the outbox row id and the
 * `Nats-Msg-Id`, so a republished event is dropped by the stream and recognised by consumers.
 */
export interface DomainEvent<Payload = unknown, Type extends DomainEventType = DomainEventType> {
  id: string;
  type: Type;
  orgId: string;
  /** Service that wrote the event. */
  source: string;
  occurredAt: string;
  payload: Payload;
}

/** An event of one type with its payload. */
export type DomainEventOf<T extends DomainEventType> = DomainEvent<EventPayloadOf<T>, T>;

/** Any event of the stream, discriminated by `type`: narrowing on it types the payload. */
export type AnyDomainEvent = { [T in DomainEventType]: DomainEventOf<T> }[DomainEventType];

/** Subject of an event on the stream: `<prefix>.<source>.<type>`. */
export function eventSubject(prefix: string, source: string, type: DomainEventType): string {
  return `${prefix}.${source}.${type}`;
}
