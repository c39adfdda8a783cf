import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CreatedWebhookRegistrationDto,
  type DeletedWebhookDto,
  type RpcRequest,
  SUBJECTS,
  type WebhookFamily,
  type WebhookRegistrationDto,
  type WebhookRegistrationInput,
  type WebhookRegistrationPageDto,
} from '@service/contracts';
import { RegistrationsService } from './registrations.service.js';

type ById = RpcRequest<{ family: WebhookFamily; id: string }>;

@Controller()
export class RegistrationsMsController {
  constructor(private readonly registrations: RegistrationsService) {}

  @MessagePattern(SUBJECTS.webhook.registrationsCreate)
  create(@Payload() { ctx, ...input }: RpcRequest<WebhookRegistrationInput>): Promise<CreatedWebhookRegistrationDto> {
    return this.registrations.create(ctx, input);
  }

  @MessagePattern(SUBJECTS.webhook.registrationsList)
  list(@Payload() { ctx, ...input }: RpcRequest<{ family: WebhookFamily; cursor?: string; limit?: string }>): Promise<WebhookRegistrationPageDto> {
    return this.registrations.list(ctx, input);
  }

  @MessagePattern(SUBJECTS.webhook.registrationsGet)
  get(@Payload() { ctx, ...input }: ById): Promise<WebhookRegistrationDto> {
    return this.registrations.get(ctx, input);
  }

  @MessagePattern(SUBJECTS.webhook.registrationsUpdate)
  update(@Payload() { ctx, ...input }: RpcRequest<WebhookRegistrationInput & { id: string }>): Promise<WebhookRegistrationDto> {
    return this.registrations.update(ctx, input);
  }

  @MessagePattern(SUBJECTS.webhook.registrationsDelete)
  delete(@Payload() { ctx, ...input }: ById): Promise<DeletedWebhookDto> {
    return this.registrations.delete(ctx, input);
  }
}
