import type { DomainEventType } from './types.js';

/**
 * What travels on the JetStream stream of domain events. `id` is the outbox row id and the
 * `Nats-Msg-Id`, so a republished event is dropped by the stream and recognised by consumers.
 */
export interface DomainEvent<Payload = unknown> {
  id: string;
  type: DomainEventType;
  orgId: string;
  /** Service that wrote the event. */
  source: string;
  occurredAt: string;
  payload: Payload;
}

/** Subject of an event on the stream: `<prefix>.<source>.<type>`. */
export function eventSubject(prefix: string, source: string, type: DomainEventType): string {
  return `${prefix}.${source}.${type}`;
}
