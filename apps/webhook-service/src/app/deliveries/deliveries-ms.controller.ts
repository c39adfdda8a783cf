import { Controller } from '@nestjs/common';
import { SUBJECTS, type WebhookDeliveryEventDto, type WebhookDeliveryEventPageDto, type WireRequestOf } from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { DeliveriesService } from './deliveries.service.js';

@Controller()
export class DeliveriesMsController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Handles(SUBJECTS.webhook.deliveriesList)
  list({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.webhook.deliveriesList>): Promise<WebhookDeliveryEventPageDto> {
    return this.deliveries.list(ctx, input);
  }

  @Handles(SUBJECTS.webhook.deliveriesRetry)
  retry({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.webhook.deliveriesRetry>): Promise<WebhookDeliveryEventDto> {
    return this.deliveries.retry(ctx, input);
  }

  @Handles(SUBJECTS.webhook.registrationsTest)
  test({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.webhook.registrationsTest>): Promise<WebhookDeliveryEventDto> {
    return this.deliveries.test(ctx, input);
  }
}
