import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type CreatedWebhookRegistrationDto,
  type DeletedWebhookDto,
  type RequestContext,
  WEBHOOK_FAMILIES,
  type WebhookFamily,
  type WebhookRegistrationDto,
  type WebhookRegistrationInput,
  type WebhookRegistrationPageDto,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { decodeCursor, encodeCursor, parseLimit, toPage } from '@service/pagination';
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

  async create(ctx: RequestContext, input: WebhookRegistrationInput): Promise<CreatedWebhookRegistrationDto> {
    const url = requireString(input.url, 'url');
    const events = checkEvents(input.family, input.events);
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

  async list(ctx: RequestContext, input: { family: WebhookFamily; cursor?: string; limit?: string }): Promise<WebhookRegistrationPageDto> {
    const limit = parseLimit(input.limit);
    const listName = `webhook-registrations:${input.family}`;
    const after = input.cursor ? decodeCursor(input.cursor, listName, {}, 2) : undefined;
    const rows = await this.prisma.registration.findMany({
      where: { orgId: ctx.orgId, family: input.family, deletedAt: null, ...(after ? beforeKey(after) : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    return toPage(rows, limit, (row) => encodeCursor(listName, {}, [row.createdAt.toISOString(), row.id]), toRegistrationView);
  }

  async get(ctx: RequestContext, input: { family: WebhookFamily; id: string }): Promise<WebhookRegistrationDto> {
    return toRegistrationView(await this.find(this.prisma, ctx.orgId, input.family, input.id));
  }

  async update(ctx: RequestContext, input: WebhookRegistrationInput & { id: string }): Promise<WebhookRegistrationDto> {
    const events = input.events === undefined ? undefined : checkEvents(input.family, input.events);
    const url = input.url === undefined ? undefined : requireString(input.url, 'url');
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
  async delete(ctx: RequestContext, input: { family: WebhookFamily; id: string }): Promise<DeletedWebhookDto> {
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

/** Keyset condition for rows after `[createdAt, id]` in newest-first order. */
export function beforeKey(position: (string | number)[]) {
  const [createdAt, id] = position;
  const at = new Date(String(createdAt));
  if (Number.isNaN(at.getTime()) || typeof id !== 'string') throw new ServiceError('invalid_cursor', 'The cursor is malformed.');
  return { OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: id } }] };
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new ServiceError('validation_error', `${field} must be a non-empty string.`);
  return value;
}

/** The gateway validated the list; the service keeps the family rule itself and drops repeats. */
function checkEvents(family: WebhookFamily, events: unknown): string[] {
  const allowed: readonly string[] = WEBHOOK_FAMILIES[family] ?? [];
  if (!Array.isArray(events) || events.length === 0) throw new ServiceError('validation_error', 'events must contain at least 1 event type.');
  const unsupported = events.find((event) => typeof event !== 'string' || !allowed.includes(event));
  if (unsupported !== undefined) throw new ServiceError('validation_error', `Unsupported event type: ${String(unsupported)}.`);
  return [...new Set(events as string[])];
}
