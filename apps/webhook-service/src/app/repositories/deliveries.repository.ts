import { Injectable } from '@nestjs/common';
import type { WebhookFamily } from '@service/contracts';
import type { NewestFirst } from '@service/pagination';
import type { DeliveryRow } from '../domain/delivery.view.js';
import { PrismaService } from '../prisma.service.js';

/** Prisma `include` that loads what a feed item shows: the callback URL and the latest attempt. */
const FEED_INCLUDE = {
  registration: { select: { id: true, url: true } },
  emissions: { orderBy: { attemptNumber: 'desc' as const }, take: 1 },
};

/** A delivery to put in the queue now, outside the event fan-out (the test endpoint). */
export interface NewDelivery {
  readonly id: string;
  readonly orgId: string;
  readonly family: WebhookFamily;
  readonly registrationId: string;
  readonly eventType: string;
  readonly body: string;
}

/**
 * Deliveries and their emissions as the API reads and acts on them (the delivery path's own
 * statements are in `delivery-store.ts`, `attempt-recorder.ts` and `fan-out.ts`).
 */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * One page of the feed of an organization's family, or of one registration, in one snapshot,
   * so an item's status and its latest emission never come from different moments.
   */
  feed(orgId: string, family: WebhookFamily, registrationId: string | undefined, page: NewestFirst): Promise<DeliveryRow[]> {
    const where = { orgId, family, ...(registrationId ? { registrationId } : {}) };
    return this.prisma.$transaction((tx) => tx.delivery.findMany({ ...page.findArgs(where), include: FEED_INCLUDE }), {
      isolationLevel: 'RepeatableRead',
    });
  }

  /** A feed item of a registration, or null. */
  find(registrationId: string, id: string): Promise<DeliveryRow | null> {
    return this.prisma.delivery.findFirst({ where: { id, registrationId }, include: FEED_INCLUDE });
  }

  /** Makes a delivery due now unless an attempt holds its lease; false when one does (or there is no such delivery). */
  async requeue(registrationId: string, id: string): Promise<boolean> {
    const queued = await this.prisma.$executeRawUnsafe(
      `UPDATE deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now()
        WHERE id = $1::uuid AND registration_id = $2::uuid AND (lease_until IS NULL OR lease_until < now())`,
      id,
      registrationId,
    );
    return queued !== 0;
  }

  /** Adds a pending delivery, due now. */
  async insert(delivery: NewDelivery): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `INSERT INTO deliveries (id, org_id, family, registration_id, event_type, body, status, next_attempt_at, updated_at)
       VALUES ($1::uuid, $2, $3, $4::uuid, $5, $6, 'pending', now(), now())`,
      delivery.id,
      delivery.orgId,
      delivery.family,
      delivery.registrationId,
      delivery.eventType,
      delivery.body,
    );
  }
}
