import type { WebhookDeliveryEventDto, WebhookDeliveryStatus } from '@service/contracts';

export interface DeliveryRow {
  id: string;
  registrationId: string;
  eventType: string;
  body: string;
  status: string;
  attemptCount: number;
  deliveredAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  registration: { id: string; url: string };
  emissions: {
    id: string;
    attemptNumber: number;
    requestedAt: Date;
    completedAt: Date | null;
    responseStatus: number | null;
    responseMs: number | null;
    errorMessage: string | null;
  }[];
}

/** A feed item with exactly the camelCase fields of the interface. */
export function toDeliveryView(row: DeliveryRow): WebhookDeliveryEventDto {
  const latest = row.emissions[0];
  return {
    id: row.id,
    registrationId: row.registrationId,
    eventType: row.eventType,
    payload: JSON.parse(row.body) as Record<string, unknown>,
    status: row.status as WebhookDeliveryStatus,
    attemptCount: row.attemptCount,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    registration: { id: row.registration.id, callbackUrl: row.registration.url },
    latestEmission: latest
      ? {
          id: latest.id,
          eventId: row.id,
          attemptNumber: latest.attemptNumber,
          requestedAt: latest.requestedAt.toISOString(),
          completedAt: latest.completedAt?.toISOString() ?? null,
          responseStatus: latest.responseStatus,
          responseMs: latest.responseMs,
          errorMessage: latest.errorMessage,
        }
      : null,
  };
}
