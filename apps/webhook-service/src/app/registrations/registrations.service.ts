import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type CreatedWebhookRegistrationDto,
  type DeletedWebhookDto,
  type RequestContext,
  type RequestOf,
  type RotatedWebhookSecretDto,
  type SUBJECTS,
  type WebhookFamily,
  type WebhookRegistrationDto,
  type WebhookRegistrationPageDto,
  WEBHOOK_SECRET_DEFAULT_OVERLAP_SECONDS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { NewestFirst } from '@service/pagination';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../../config.js';
import { storedDescription, toCreatedView, toRegistrationView } from '../domain/registration.view.js';
import { newSigningSecret, SecretBox } from '../domain/secret-box.js';
import type { UrlPolicy } from '../domain/url-policy.js';
import { SECRET_BOX, URL_POLICY } from '../injection.js';
import { checkRegistrationUrl } from '../receivers/receiver-address.js';
import {
  type Registration,
  type RegistrationChanges,
  type RegistrationsDb,
  RegistrationsRepository,
} from '../repositories/registrations.repository.js';

export const WEBHOOK_NOT_FOUND = 'Webhook not found.';

/** Registrations of the three families; every query is scoped by organization and family. */
@Injectable()
export class RegistrationsService {
  constructor(
    private readonly registrations: RegistrationsRepository,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(URL_POLICY) private readonly policy: UrlPolicy,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_CONFIG) private readonly config: WebhookConfig,
  ) {}

  async create(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsCreate>): Promise<CreatedWebhookRegistrationDto> {
    const { url, family } = input;
    const events = distinct(input.events);
    await this.checkUrl(ctx, url);
    const secret = newSigningSecret();
    const id = randomUUID();
    const row = await this.registrations.transaction(async (tx) => {
      await this.refuseOverLimit(tx, ctx.orgId, family);
      await this.refuseDuplicate(tx, ctx.orgId, family, url);
      return this.registrations.create(tx, {
        id,
        orgId: ctx.orgId,
        family,
        url,
        events,
        description: storedDescription(input.description),
        secretEnc: this.secrets.seal(secret, { registrationId: id, orgId: ctx.orgId }),
      });
    });
    return toCreatedView(row, secret);
  }

  async list(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsList>): Promise<WebhookRegistrationPageDto> {
    const page = new NewestFirst(`webhook-registrations:${input.family}`, {}, input);
    return page.page(await this.registrations.list(ctx.orgId, input.family, page), toRegistrationView);
  }

  async get(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsGet>): Promise<WebhookRegistrationDto> {
    return toRegistrationView(await this.find(ctx.orgId, input.family, input.id));
  }

  async update(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsUpdate>): Promise<WebhookRegistrationDto> {
    const { url } = input;
    if (url !== undefined) await this.checkUrl(ctx, url);
    const changes: RegistrationChanges = {
      url,
      events: input.events === undefined ? undefined : distinct(input.events),
      ...('description' in input ? { description: storedDescription(input.description) } : {}),
    };
    const row = await this.registrations.transaction(async (tx) => {
      await this.registrations.lockSecrets(tx, input.id);
      const current = await this.find(ctx.orgId, input.family, input.id, tx);
      if (url !== undefined && url !== current.url) await this.refuseDuplicate(tx, ctx.orgId, input.family, url);
      return this.registrations.update(tx, current.id, { ...changes, ...this.resealed(current) });
    });
    return toRegistrationView(row);
  }

  /**
   * A new signing secret, shown once. The old one keeps signing every delivery beside it for
   * `expiresInSeconds` (a day by default; 0 stops it at once), so receivers can switch without
   * refusing a delivery; a secret still overlapping from an earlier rotation stops now.
   */
  async rotateSecret(
    ctx: RequestContext,
    input: RequestOf<typeof SUBJECTS.webhook.registrationsRotateSecret>,
  ): Promise<RotatedWebhookSecretDto> {
    const overlapSeconds = input.expiresInSeconds ?? WEBHOOK_SECRET_DEFAULT_OVERLAP_SECONDS;
    const secret = newSigningSecret();
    const expiresAt = new Date(Date.now() + overlapSeconds * 1000);
    await this.registrations.transaction(async (tx) => {
      await this.registrations.lockSecrets(tx, input.id);
      const current = await this.find(ctx.orgId, input.family, input.id, tx);
      const binding = { registrationId: current.id, orgId: current.orgId };
      // Opened and sealed again: the replaced secret is bound to the row even when it was sealed before the binding.
      const previous = overlapSeconds > 0 ? this.secrets.seal(this.secrets.open(current.secretEnc, binding), binding) : null;
      await this.registrations.rotateSecret(tx, current.id, {
        secretEnc: this.secrets.seal(secret, binding),
        previousSecretEnc: previous,
        previousSecretExpiresAt: previous === null ? null : expiresAt,
      });
    });
    this.logger.info({ orgId: ctx.orgId, registrationId: input.id, overlapSeconds }, 'rotated a webhook signing secret');
    return { id: input.id, secret, previousSecretExpiresAt: expiresAt.toISOString() };
  }

  /** Soft delete: the history keeps its callback URL; every delivery not yet made is cancelled. */
  async delete(ctx: RequestContext, input: RequestOf<typeof SUBJECTS.webhook.registrationsDelete>): Promise<DeletedWebhookDto> {
    await this.registrations.transaction(async (tx) => {
      const current = await this.find(ctx.orgId, input.family, input.id, tx);
      await this.registrations.deactivate(tx, current.id, 'The registration was deleted before delivery.');
    });
    return { id: input.id, deleted: true };
  }

  /** An active registration of the caller's organization and family, or `webhook_not_found`. */
  async find(orgId: string, family: WebhookFamily, id: string, tx?: RegistrationsDb): Promise<Registration> {
    const row = await this.registrations.findActive(orgId, family, id, tx);
    if (!row) throw new ServiceError('webhook_not_found', WEBHOOK_NOT_FOUND);
    return row;
  }

  /** The row's secrets sealed again with its binding when one was sealed before it (`v1`); nothing when both are bound. */
  private resealed(row: Registration): Pick<RegistrationChanges, 'secretEnc' | 'previousSecretEnc'> {
    const binding = { registrationId: row.id, orgId: row.orgId };
    const reseal = (sealed: string) =>
      SecretBox.isBound(sealed) ? sealed : this.secrets.seal(this.secrets.open(sealed, binding), binding);
    const changes: { secretEnc?: string; previousSecretEnc?: string | null } = {};
    if (!SecretBox.isBound(row.secretEnc)) changes.secretEnc = reseal(row.secretEnc);
    if (row.previousSecretEnc !== null && !SecretBox.isBound(row.previousSecretEnc))
      changes.previousSecretEnc = reseal(row.previousSecretEnc);
    return changes;
  }

  /** The URL check; the reason a host was refused goes to the log only, never to the caller. */
  private checkUrl(ctx: RequestContext, url: string): Promise<void> {
    return checkRegistrationUrl(url, this.policy, (detail) =>
      this.logger.info({ orgId: ctx.orgId, host: new URL(url).hostname, reason: detail.message }, 'refused a webhook receiver host'),
    );
  }

  /** Under the family's lock, held until the transaction ends, so two concurrent creates at the limit cannot both pass. */
  private async refuseOverLimit(tx: RegistrationsDb, orgId: string, family: WebhookFamily): Promise<void> {
    const limit = this.config.WEBHOOK_MAX_REGISTRATIONS_PER_ORGANIZATION;
    await this.registrations.lockFamily(tx, orgId, family);
    if ((await this.registrations.countActive(tx, orgId, family)) >= limit) {
      throw new ServiceError(
        'webhook_limit_reached',
        `The organization already has ${limit} webhook registrations of this kind; delete one to add another.`,
      );
    }
  }

  /** Under the URL's lock, held until the transaction ends, so two concurrent registrations cannot both pass. */
  private async refuseDuplicate(tx: RegistrationsDb, orgId: string, family: WebhookFamily, url: string): Promise<void> {
    await this.registrations.lockUrl(tx, orgId, family, url);
    if (await this.registrations.hasActiveUrl(tx, orgId, family, url)) {
      throw new ServiceError('webhook_duplicate_url', 'A webhook with this URL is already registered.');
    }
  }
}

/** The subscribed types once each (the gateway checked them against the family's catalogue). */
function distinct(events: readonly string[]): string[] {
  return [...new Set(events)];
}
