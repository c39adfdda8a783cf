import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type CreatedWebhookRegistrationDto,
  type DeletedWebhookDto,
  type RequestContext,
  type RequestOf,
  type SUBJECTS,
  type WebhookFamily,
  type WebhookRegistrationDto,
  type WebhookRegistrationPageDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { NewestFirst } from '@service/pagination';
import { firstPageIfEmpty } from '../domain/page-query.js';
import { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';
import { newSigningSecret, type SecretBox } from '../security/secret-box.js';
import { checkRegistrationUrl, type UrlPolicy } from '../security/url-policy.js';
import { SECRET_BOX, URL_POLICY } from '../webhook.providers.js';
import { storedDescription, toCreatedView, toRegistrationView } from './registration.view.js';

type Tx = Prisma.TransactionClient;

export const WEBHOOK_NOT_FOUND = 'Webhook not found.';

/** Registrations of the three families; every query is scoped by organization and family. */
@Injectable()
export class RegistrationsService {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(URL_POLICY) private readonly policy: UrlPolicy,
  ) {}

  async create(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsCreate>): Promise<CreatedWebhookRegistrationDto> {
    const { url } = input;
    const events = distinct(input.events);
    await checkRegistrationUrl(url, this.policy);
    const secret = newSigningSecret();
    const row = await this.prisma.$transaction(async (tx) => {
      await this.lockUrl(tx, ctx.orgId, input.family, url);
      await this.refuseDuplicate(tx, ctx.orgId, input.family, url);
      return tx.registration.create({
        data: {
          id: randomUUID(),
          orgId: ctx.orgId,
          family: input.family,
          url,
          events,
          description: storedDescription(input.description) ?? Prisma.DbNull,
          secretEnc: this.secrets.seal(secret),
        },
      });
    });
    return toCreatedView(row, secret);
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsList>): Promise<WebhookRegistrationPageDto> {
    const page = new NewestFirst(`webhook-registrations:${input.family}`, {}, firstPageIfEmpty(input));
    const rows = await this.prisma.registration.findMany({
      where: { orgId: ctx.orgId, family: input.family, deletedAt: null, ...page.where },
      orderBy: page.orderBy,
      take: page.take,
    });
    return page.page(rows, toRegistrationView);
  }

  async get(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsGet>): Promise<WebhookRegistrationDto> {
    return toRegistrationView(await this.find(this.prisma, ctx.orgId, input.family, input.id));
  }

  async update(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsUpdate>): Promise<WebhookRegistrationDto> {
    // The DTO's @IsOptional lets an explicit null through; null does not mean "unchanged".
    if (input.events === null) throw new ServiceError('validation_error', 'events must contain at least 1 event type.');
    if (input.url === null) throw new ServiceError('validation_error', 'url must be a non-empty string.');
    const events = input.events === undefined ? undefined : distinct(input.events);
    const { url } = input;
    if (url !== undefined) await checkRegistrationUrl(url, this.policy);
    const row = await this.prisma.$transaction(async (tx) => {
      const current = await this.find(tx, ctx.orgId, input.family, input.id);
      if (url !== undefined && url !== current.url) {
        await this.lockUrl(tx, ctx.orgId, input.family, url);
        await this.refuseDuplicate(tx, ctx.orgId, input.family, url);
      }
      const description = 'description' in input ? (storedDescription(input.description) ?? Prisma.DbNull) : undefined;
      return tx.registration.update({ where: { id: current.id }, data: { url, events, description, updatedAt: new Date() } });
    });
    return toRegistrationView(row);
  }

  /** Soft delete: the history keeps its callback URL; every delivery not yet made is cancelled. */
  async delete(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsDelete>): Promise<DeletedWebhookDto> {
    await this.prisma.$transaction(async (tx) => {
      const current = await this.find(tx, ctx.orgId, input.family, input.id);
      await deactivate(tx, current.id, 'The registration was deleted before delivery.');
    });
    return { id: input.id, deleted: true };
  }

  /** An active registration of the caller's organization and family, or `webhook_not_found`. */
  async find(db: Tx, orgId: string, family: WebhookFamily, id: string) {
    const row = await db.registration.findFirst({ where: { id, orgId, family, deletedAt: null } });
    if (!row) throw new ServiceError('webhook_not_found', WEBHOOK_NOT_FOUND);
    return row;
  }

  /** Serialises registrations of one URL so two concurrent creates cannot both pass the check. */
  private async lockUrl(tx: Tx, orgId: string, family: string, url: string): Promise<void> {
    await tx.$queryRawUnsafe('SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtextextended($1, 0))) AS l', `${orgId}\n${family}\n${url}`);
  }

  private async refuseDuplicate(tx: Tx, orgId: string, family: string, url: string): Promise<void> {
    const existing = await tx.registration.findFirst({ where: { orgId, family, url, deletedAt: null }, select: { id: true } });
    if (existing) throw new ServiceError('webhook_duplicate_url', 'A webhook with this URL is already registered.');
  }
}

/**
 * Stops every future delivery of a registration: marks it deleted and fails what is pending or
 * scheduled, so a retry already planned never goes out.
 */
export async function deactivate(tx: Tx, registrationId: string, reason: string): Promise<void> {
  const now = new Date();
  await tx.registration.update({ where: { id: registrationId }, data: { deletedAt: now, updatedAt: now } });
  await tx.delivery.updateMany({
    where: { registrationId, status: { in: ['pending', 'retry_scheduled'] } },
    data: { status: 'failed', nextAttemptAt: null, lastError: reason, updatedAt: now },
  });
}

/** The subscribed types once each (the gateway checked them against the family's catalogue). */
function distinct(events: readonly string[]): string[] {
  return [...new Set(events)];
}
