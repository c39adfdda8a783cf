import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext, RequestOf, SUBJECTS, WebhookDeliveryEventDto, WebhookDeliveryEventPageDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { NewestFirst } from '@service/pagination';
import { TEST_EVENT_TYPE, testDeliveryBody } from '../domain/delivery-body.js';
import { type DeliveryRow, toDeliveryView } from '../domain/delivery.view.js';
import { DELIVERY_WAKE, type DeliveryWake } from '../injection.js';
import { RegistrationsService } from '../registrations/registrations.service.js';
import { DeliveriesRepository } from '../repositories/deliveries.repository.js';

/** The delivery history and the actions on it: retry one event, send a test delivery. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly registrations: RegistrationsService,
    @Inject(DELIVERY_WAKE) private readonly dispatcher: DeliveryWake,
  ) {}

  /** One registration's feed (`id`), or the organization's of this family when `id` is absent. */
  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.deliveriesList>): Promise<WebhookDeliveryEventPageDto> {
    const page = new NewestFirst(`webhook-deliveries:${input.family}`, { registrationId: input.id }, input);
    if (input.id) await this.registrations.find(ctx.orgId, input.family, input.id);
    return page.page(await this.deliveries.feed(ctx.orgId, input.family, input.id, page), toDeliveryView);
  }

  /** Delivers one event again now: a new emission with the same Service-Event-Id. */
  async retry(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.deliveriesRetry>): Promise<WebhookDeliveryEventDto> {
    await this.registrations.find(ctx.orgId, input.family, input.id);
    const queued = await this.deliveries.requeue(input.id, input.eventId);
    const row = await this.findDelivery(input.id, input.eventId);
    if (!queued) throw new ServiceError('workflow_conflict', 'A delivery attempt of this event is in progress; retry when it ends.');
    this.dispatcher.wake();
    return toDeliveryView(row);
  }

  /** Queues a signed `webhook.test` delivery to the registration; its outcome shows in the feed. */
  async test(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsTest>): Promise<WebhookDeliveryEventDto> {
    const registration = await this.registrations.find(ctx.orgId, input.family, input.id);
    const id = randomUUID();
    const body = testDeliveryBody(input.family, id, registration.id, new Date().toISOString());
    await this.deliveries.insert({
      id,
      orgId: ctx.orgId,
      family: input.family,
      registrationId: registration.id,
      eventType: TEST_EVENT_TYPE,
      body,
    });
    // Read before the dispatcher wakes, so the answer is the queued delivery, never a first attempt racing it.
    const queued = toDeliveryView(await this.findDelivery(registration.id, id));
    this.dispatcher.wake();
    return queued;
  }

  private async findDelivery(registrationId: string, id: string): Promise<DeliveryRow> {
    const row = await this.deliveries.find(registrationId, id);
    if (!row) throw new ServiceError('webhook_not_found', 'Webhook event not found.');
    return row;
  }
}
