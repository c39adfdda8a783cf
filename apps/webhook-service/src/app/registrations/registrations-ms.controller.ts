import { Controller } from '@nestjs/common';
import {
  type CreatedWebhookRegistrationDto,
  type DeletedWebhookDto,
  type RotatedWebhookSecretDto,
  SUBJECTS,
  type WebhookRegistrationDto,
  type WebhookRegistrationPageDto,
  type WireRequestOf,
} from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { RegistrationsService } from './registrations.service.js';

@Controller()
export class RegistrationsMsController {
  constructor(private readonly registrations: RegistrationsService) {}

  @Handles(SUBJECTS.webhook.registrationsCreate)
  create({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.webhook.registrationsCreate>): Promise<CreatedWebhookRegistrationDto> {
    return this.registrations.create(ctx, input);
  }

  @Handles(SUBJECTS.webhook.registrationsList)
  list({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.webhook.registrationsList>): Promise<WebhookRegistrationPageDto> {
    return this.registrations.list(ctx, input);
  }

  @Handles(SUBJECTS.webhook.registrationsGet)
  get({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.webhook.registrationsGet>): Promise<WebhookRegistrationDto> {
    return this.registrations.get(ctx, input);
  }

  @Handles(SUBJECTS.webhook.registrationsUpdate)
  update({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.webhook.registrationsUpdate>): Promise<WebhookRegistrationDto> {
    return this.registrations.update(ctx, input);
  }

  @Handles(SUBJECTS.webhook.registrationsRotateSecret)
  rotateSecret({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.webhook.registrationsRotateSecret>): Promise<RotatedWebhookSecretDto> {
    return this.registrations.rotateSecret(ctx, input);
  }

  @Handles(SUBJECTS.webhook.registrationsDelete)
  delete({ ctx, ...input }: WireRequestOf<typeof SUBJECTS.webhook.registrationsDelete>): Promise<DeletedWebhookDto> {
    return this.registrations.delete(ctx, input);
  }
}
