import { Controller, Delete, Get, HttpCode, Inject, Patch, Post, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreatedWebhookRegistrationDto,
  CreateGVaultWebhookDto,
  CreateWebhookDto,
  CreateWebhookEndpointDto,
  DeletedWebhookDto,
  NoQueryDto,
  PageQueryDto,
  type RequestContext,
  RotatedWebhookSecretDto,
  RotateWebhookSecretDto,
  SUBJECTS,
  UpdateWebhookDto,
  UpdateWebhookEndpointDto,
  UpdateGVaultWebhookDto,
  WebhookDeliveryEventDto,
  WebhookDeliveryEventPageDto,
  type WebhookFamily,
  WebhookRegistrationDto,
  WebhookRegistrationPageDto,
} from '@service/contracts';
import type { SubjectClient } from '@service/nats';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { RequiredRoles } from '../docs/required-roles.js';
import { Ctx } from '../http/request-context.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.js';
import { SERVICES_CLIENT } from '../services.js';

interface FamilyRoutes {
  readonly family: WebhookFamily;
  readonly path: string;
  readonly tag: string;
  readonly name: string;
  /** The noun of the family's operation ids (`createWebhook`, `listWebhookEndpoints`, `testGVaultWebhook`). */
  readonly resource: string;
  readonly createDto: Type;
  readonly updateDto: Type;
}

/**
 * The routes of one registration family. The three families share one mechanism in
 * webhook-service and differ only in path and event catalogue, so one definition serves all and
 * the service is told the family with every request.
 */
function registrationController(routes: FamilyRoutes): Type {
  const { family, createDto, updateDto } = routes;

  @ApiTags(routes.tag)
  @ApiBearerAuth()
  @Controller(routes.path)
  class RegistrationController {
    constructor(@Inject(SERVICES_CLIENT) readonly services: SubjectClient) {}

    @Post()
    @HttpCode(200)
    @Operation(`create${routes.resource}`, {
      summary: 'Register a receiver; the response is the only time the secret is shown. Owners and admins.',
    })
    @RequiredRoles(SUBJECTS.webhook.registrationsCreate)
    @ApiBody({ type: createDto })
    @ApiOkResponse({ type: CreatedWebhookRegistrationDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 409] })
    create(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @ValidBody(createDto) body: CreateWebhookDto) {
      return this.services.forward(SUBJECTS.webhook.registrationsCreate, { ctx, ...body, family });
    }

    @Get()
    @Operation(`list${routes.resource}s`, { summary: 'Active registrations of the organization, newest first (no secrets)' })
    @ApiOkResponse({ type: WebhookRegistrationPageDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400] })
    list(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto) {
      return this.services.forward(SUBJECTS.webhook.registrationsList, { ctx, ...query, family });
    }

    @Get('events')
    @Operation(`listAll${routes.resource}Events`, { summary: "Delivery events of all the organization's registrations, newest first" })
    @ApiOkResponse({ type: WebhookDeliveryEventPageDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400] })
    allEvents(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto) {
      return this.services.forward(SUBJECTS.webhook.deliveriesList, { ctx, ...query, family });
    }

    @Get(':id')
    @Operation(`get${routes.resource}`, { summary: 'One registration (no secret)' })
    @ApiParam({ name: 'id', format: 'uuid' })
    @ApiOkResponse({ type: WebhookRegistrationDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
    get(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @UuidParam('id') id: string) {
      return this.services.forward(SUBJECTS.webhook.registrationsGet, { ctx, id, family });
    }

    @Delete(':id')
    @Operation(`delete${routes.resource}`, {
      summary: 'Delete a registration: no further delivery, including retries already scheduled. Owners and admins.',
    })
    @RequiredRoles(SUBJECTS.webhook.registrationsDelete)
    @ApiParam({ name: 'id', format: 'uuid' })
    @ApiOkResponse({ type: DeletedWebhookDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
    remove(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @UuidParam('id') id: string) {
      return this.services.forward(SUBJECTS.webhook.registrationsDelete, { ctx, id, family });
    }

    @Patch(':id')
    @Operation(`update${routes.resource}`, {
      summary: 'Change url, events or description; the same rules as on creation. Owners and admins.',
    })
    @RequiredRoles(SUBJECTS.webhook.registrationsUpdate)
    @ApiParam({ name: 'id', format: 'uuid' })
    @ApiBody({ type: updateDto })
    @ApiOkResponse({ type: WebhookRegistrationDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
    update(
      @Ctx() ctx: RequestContext,
      @ValidQuery(NoQueryDto) _query: NoQueryDto,
      @UuidParam('id') id: string,
      @ValidBody(updateDto) body: UpdateWebhookDto,
    ) {
      return this.services.forward(SUBJECTS.webhook.registrationsUpdate, { ctx, ...body, id, family });
    }

    @Get(':id/events')
    @Operation(`list${routes.resource}Events`, { summary: 'Delivery events of one registration, newest first' })
    @ApiParam({ name: 'id', format: 'uuid' })
    @ApiOkResponse({ type: WebhookDeliveryEventPageDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400, 404] })
    events(@Ctx() ctx: RequestContext, @ValidQuery(PageQueryDto) query: PageQueryDto, @UuidParam('id') id: string) {
      return this.services.forward(SUBJECTS.webhook.deliveriesList, { ctx, ...query, id, family });
    }

    @Post(':id/events/:eventId/retry')
    @HttpCode(200)
    @Operation(`retry${routes.resource}Event`, {
      summary: 'Deliver one event again now (a new attempt with the same Service-Event-Id). Owners and admins.',
    })
    @RequiredRoles(SUBJECTS.webhook.deliveriesRetry)
    @ApiParam({ name: 'id', format: 'uuid' })
    @ApiParam({ name: 'eventId', format: 'uuid' })
    @ApiOkResponse({ type: WebhookDeliveryEventDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404, 409] })
    retry(
      @Ctx() ctx: RequestContext,
      @ValidQuery(NoQueryDto) _query: NoQueryDto,
      @UuidParam('id') id: string,
      @UuidParam('eventId') eventId: string,
    ) {
      return this.services.forward(SUBJECTS.webhook.deliveriesRetry, { ctx, id, eventId, family });
    }

    @Post(':id/test')
    @HttpCode(200)
    @Operation(`test${routes.resource}`, {
      summary: 'Send a signed `webhook.test` delivery; its outcome shows in the delivery feed. Owners and admins.',
    })
    @RequiredRoles(SUBJECTS.webhook.registrationsTest)
    @ApiParam({ name: 'id', format: 'uuid' })
    @ApiOkResponse({ type: WebhookDeliveryEventDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
    test(@Ctx() ctx: RequestContext, @ValidQuery(NoQueryDto) _query: NoQueryDto, @UuidParam('id') id: string) {
      return this.services.forward(SUBJECTS.webhook.registrationsTest, { ctx, id, family });
    }

    @Post(':id/secret/rotate')
    @HttpCode(200)
    @Operation(`rotate${routes.resource}Secret`, {
      summary: 'Replace the signing secret; the new one is shown only in this response. Owners and admins.',
      description:
        'The old secret keeps signing every delivery beside the new one for `expiresInSeconds` (default 86400, at most 604800; 0 stops it at once): ' +
        "`Service-Signature` then carries two `v1=` entries, the new secret's first (`t=<unix>,v1=<new>,v1=<old>`), and `webhook-signature` two " +
        'space-separated `v1,` entries; a receiver accepts a delivery when any entry matches the secret it holds. A secret still overlapping ' +
        'from an earlier rotation stops signing now.',
    })
    @RequiredRoles(SUBJECTS.webhook.registrationsRotateSecret)
    @ApiParam({ name: 'id', format: 'uuid' })
    @ApiBody({ type: RotateWebhookSecretDto, required: false })
    @ApiOkResponse({ type: RotatedWebhookSecretDto })
    @ApiStandardErrors({ forwarded: true, statuses: [400, 403, 404] })
    rotateSecret(
      @Ctx() ctx: RequestContext,
      @ValidQuery(NoQueryDto) _query: NoQueryDto,
      @UuidParam('id') id: string,
      @ValidBody(RotateWebhookSecretDto) body: RotateWebhookSecretDto,
    ) {
      return this.services.forward(SUBJECTS.webhook.registrationsRotateSecret, { ctx, ...body, id, family });
    }
  }

  // Distinct names give each family its own OpenAPI operation ids.
  Object.defineProperty(RegistrationController, 'name', { value: routes.name });
  return RegistrationController;
}

export const WebhooksController = registrationController({
  name: 'WebhooksController',
  resource: 'Webhook',
  family: 'webhooks',
  path: 'v2/webhooks',
  tag: 'Webhooks',
  createDto: CreateWebhookDto,
  updateDto: UpdateWebhookDto,
});

export const WebhookEndpointsController = registrationController({
  name: 'WebhookEndpointsController',
  resource: 'WebhookEndpoint',
  family: 'webhook-endpoints',
  path: 'v2/webhook-endpoints',
  tag: 'Webhook endpoints',
  createDto: CreateWebhookEndpointDto,
  updateDto: UpdateWebhookEndpointDto,
});

export const GVaultWebhooksController = registrationController({
  name: 'GVaultWebhooksController',
  resource: 'GVaultWebhook',
  family: 'gvault',
  path: 'v2/gvaults/webhooks',
  tag: 'gtokens',
  createDto: CreateGVaultWebhookDto,
  updateDto: UpdateGVaultWebhookDto,
});
