import type { DomainEvent, WebhookFamily } from '@service/contracts';

/**
 * The exact body a registration receives: portfolio wallet events go out as the payload the
 * wallet service wrote (`{event, observedAt, walletId, <resource>}`); gtoken events in the
 * envelope `{id, type, createdAt, data}` whose `id` is the delivery's Service-Event-Id.
 */
export function deliveryBody(family: string, event: Pick<DomainEvent, 'type' | 'occurredAt' | 'payload'>, deliveryId: string): string {
  if (family === 'gvault') {
    return JSON.stringify({ id: deliveryId, type: event.type, createdAt: event.occurredAt, data: event.payload });
  }
  return JSON.stringify(event.payload);
}

/** Event type of deliveries made by the test endpoint, so receivers can tell them apart. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The body of a `webhook.test` delivery, in the family's own shape. */
export function testDeliveryBody(family: WebhookFamily, deliveryId: string, registrationId: string, occurredAt: string): string {
  const payload = { webhookId: registrationId };
  return family === 'gvault'
    ? deliveryBody(family, { type: TEST_EVENT_TYPE as never, occurredAt, payload }, deliveryId)
    : JSON.stringify({ event: TEST_EVENT_TYPE, observedAt: occurredAt, ...payload });
}
