import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type RpcRequest, SUBJECTS, type WebhookDeliveryEventDto, type WebhookDeliveryEventPageDto, type WebhookFamily } from '@service/contracts';
import { DeliveriesService } from './deliveries.service.js';

@Controller()
export class DeliveriesMsController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @MessagePattern(SUBJECTS.webhook.deliveriesList)
  list(
    @Payload() { ctx, ...input }: RpcRequest<{ family: WebhookFamily; id?: string; cursor?: string; limit?: string }>,
  ): Promise<WebhookDeliveryEventPageDto> {
    return this.deliveries.list(ctx, input);
  }

  @MessagePattern(SUBJECTS.webhook.deliveriesRetry)
  retry(@Payload() { ctx, ...input }: RpcRequest<{ family: WebhookFamily; id: string; eventId: string }>): Promise<WebhookDeliveryEventDto> {
    return this.deliveries.retry(ctx, input);
  }

  @MessagePattern(SUBJECTS.webhook.registrationsTest)
  test(@Payload() { ctx, ...input }: RpcRequest<{ family: WebhookFamily; id: string }>): Promise<WebhookDeliveryEventDto> {
    return this.deliveries.test(ctx, input);
  }
}
