import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { RequestContext, RequestOf, SUBJECTS, WebhookDeliveryEventDto, WebhookDeliveryEventPageDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { NewestFirst } from '@service/pagination';
import { firstPageIfEmpty } from '../domain/page-query.js';
import { PrismaService } from '../prisma.service.js';
import { RegistrationsService } from '../registrations/registrations.service.js';
import { FEED_INCLUDE, toDeliveryView } from './delivery.view.js';
import { DeliveryDispatcher } from './dispatcher.service.js';
import { deliveryBody } from './fan-out.js';

/** Event type of deliveries made by the test endpoint, so receivers can tell them apart. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The delivery history and the actions on it: retry one event, send a test delivery. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly registrations: RegistrationsService,
    private readonly dispatcher: DeliveryDispatcher,
  ) {}

  /** One registration's feed (`id`), or the organization's of this family when `id` is absent. */
  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.deliveriesList>): Promise<WebhookDeliveryEventPageDto> {
    const page = new NewestFirst(`webhook-deliveries:${input.family}`, { registrationId: input.id }, firstPageIfEmpty(input));
    if (input.id) await this.registrations.find(this.prisma, ctx.orgId, input.family, input.id);
    // One snapshot, so an item's status and its latest emission never come from different moments.
    const rows = await this.prisma.$transaction((tx) => tx.delivery.findMany({
      where: {
        orgId: ctx.orgId,
        family: input.family,
        ...(input.id ? { registrationId: input.id } : {}),
        ...page.where,
      },
      orderBy: page.orderBy,
      include: FEED_INCLUDE,
      take: page.take,
    }), { isolationLevel: 'RepeatableRead' });
    return page.page(rows, toDeliveryView);
  }

  /** Delivers one event again now: a new emission with the same Service-Event-Id. */
  async retry(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.deliveriesRetry>): Promise<WebhookDeliveryEventDto> {
    await this.registrations.find(this.prisma, ctx.orgId, input.family, input.id);
    const queued = await this.prisma.$executeRawUnsafe(
      `UPDATE deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now()
        WHERE id = $1::uuid AND registration_id = $2::uuid AND (lease_until IS NULL OR lease_until < now())`,
      input.eventId,
      input.id,
    );
    const row = await this.findDelivery(input.id, input.eventId);
    if (queued === 0) throw new ServiceError('workflow_conflict', 'A delivery attempt of this event is in progress; retry when it ends.');
    this.dispatcher.wake();
    return toDeliveryView(row);
  }

  /** Queues a signed `webhook.test` delivery to the registration; its outcome shows in the feed. */
  async test(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsTest>): Promise<WebhookDeliveryEventDto> {
    const registration = await this.registrations.find(this.prisma, ctx.orgId, input.family, input.id);
    const id = randomUUID();
    const occurredAt = new Date().toISOString();
    const payload = { webhookId: registration.id };
    const body =
      input.family === 'gvault'
        ? deliveryBody(input.family, { type: TEST_EVENT_TYPE as never, occurredAt, payload }, id)
        : JSON.stringify({ event: TEST_EVENT_TYPE, observedAt: occurredAt, ...payload });
    await this.prisma.$executeRawUnsafe(
      `INSERT INTO deliveries (id, org_id, family, registration_id, event_type, body, status, next_attempt_at, updated_at)
       VALUES ($1::uuid, $2, $3, $4::uuid, $5, $6, 'pending', now(), now())`,
      id,
      ctx.orgId,
      input.family,
      registration.id,
      TEST_EVENT_TYPE,
      body,
    );
    this.dispatcher.wake();
    return toDeliveryView(await this.findDelivery(registration.id, id));
  }

  private async findDelivery(registrationId: string, id: string) {
    const row = await this.prisma.delivery.findFirst({ where: { id, registrationId }, include: FEED_INCLUDE });
    if (!row) throw new ServiceError('webhook_not_found', 'Webhook event not found.');
    return row;
  }
}
