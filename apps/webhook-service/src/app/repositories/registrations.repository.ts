import { Injectable } from '@nestjs/common';
import type { WebhookFamily } from '@service/contracts';
import type { NewestFirst } from '@service/pagination';
import { Prisma, type Registration } from '../../generated/prisma/client.js';
import { PrismaService } from '../prisma.service.js';

/** A transaction of {@link RegistrationsRepository.transaction}, or the client itself. */
export type RegistrationsDb = Prisma.TransactionClient;
export type { Registration };

/** A registration as stored, with its fields as written. */
export interface NewRegistration {
  readonly id: string;
  readonly orgId: string;
  readonly family: WebhookFamily;
  readonly url: string;
  readonly events: string[];
  /** Null stores no description. */
  readonly description: unknown;
  readonly secretEnc: string;
}

/** What an update changes; an absent field stays as it is. */
export interface RegistrationChanges {
  readonly url?: string;
  readonly events?: string[];
  /** Null clears the description. */
  readonly description?: unknown;
  /** The secrets sealed again (a `v1` value bound to its row); absent leaves them as they are. */
  readonly secretEnc?: string;
  readonly previousSecretEnc?: string | null;
}

/** What a secret rotation writes: the new secret, and the replaced one with the end of its overlap (both null: none). */
export interface RotatedSecrets {
  readonly secretEnc: string;
  readonly previousSecretEnc: string | null;
  readonly previousSecretExpiresAt: Date | null;
}

const stored = (description: unknown) => (description === null ? Prisma.DbNull : (description as Prisma.InputJsonValue));

/** A transaction-scoped advisory lock on a text key, held until `tx` ends. */
async function advisoryLock(tx: RegistrationsDb, key: string): Promise<void> {
  await tx.$queryRawUnsafe('SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtextextended($1, 0))) AS l', key);
}

/** Registrations of the three families; every read is scoped by organization and family. */
@Injectable()
export class RegistrationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(work: (tx: RegistrationsDb) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  /** An active registration of the organization and family, or null. */
  findActive(orgId: string, family: WebhookFamily, id: string, db: RegistrationsDb = this.prisma): Promise<Registration | null> {
    return db.registration.findFirst({ where: { id, orgId, family, deletedAt: null } });
  }

  /** Active registrations, newest first, one page. */
  list(orgId: string, family: WebhookFamily, page: NewestFirst): Promise<Registration[]> {
    return this.prisma.registration.findMany(page.findArgs({ orgId, family, deletedAt: null }));
  }

  /** Serialises registrations of one URL until `tx` ends, so two concurrent creates cannot both pass the duplicate check. */
  async lockUrl(tx: RegistrationsDb, orgId: string, family: string, url: string): Promise<void> {
    await advisoryLock(tx, `${orgId}\n${family}\n${url}`);
  }

  /**
   * Serialises creates of one organization's family until `tx` ends, so two concurrent creates at
   * the limit cannot both pass the count. Taken before {@link lockUrl}, always in that order.
   */
  async lockFamily(tx: RegistrationsDb, orgId: string, family: string): Promise<void> {
    await advisoryLock(tx, `registrations\n${orgId}\n${family}`);
  }

  /**
   * Serialises the writes of one registration's secrets until `tx` ends (a rotation, an update
   * re-sealing them), so two concurrent rotations cannot both replace the same secret and lose one.
   * Taken before {@link lockUrl}, always in that order.
   */
  async lockSecrets(tx: RegistrationsDb, registrationId: string): Promise<void> {
    await advisoryLock(tx, `registration-secrets\n${registrationId}`);
  }

  /** Active registrations of the organization in one family. */
  countActive(tx: RegistrationsDb, orgId: string, family: string): Promise<number> {
    return tx.registration.count({ where: { orgId, family, deletedAt: null } });
  }

  async hasActiveUrl(tx: RegistrationsDb, orgId: string, family: string, url: string): Promise<boolean> {
    const existing = await tx.registration.findFirst({ where: { orgId, family, url, deletedAt: null }, select: { id: true } });
    return existing !== null;
  }

  create(tx: RegistrationsDb, row: NewRegistration): Promise<Registration> {
    return tx.registration.create({ data: { ...row, description: stored(row.description) } });
  }

  update(tx: RegistrationsDb, id: string, changes: RegistrationChanges): Promise<Registration> {
    const description = 'description' in changes ? stored(changes.description) : undefined;
    return tx.registration.update({
      where: { id },
      data: {
        url: changes.url,
        events: changes.events,
        description,
        secretEnc: changes.secretEnc,
        previousSecretEnc: changes.previousSecretEnc,
        updatedAt: new Date(),
      },
    });
  }

  rotateSecret(tx: RegistrationsDb, id: string, secrets: RotatedSecrets): Promise<Registration> {
    return tx.registration.update({ where: { id }, data: { ...secrets, updatedAt: new Date() } });
  }

  /**
   * Stops every future delivery of a registration: marks it deleted and fails what is pending or
   * scheduled, so a retry already planned never goes out.
   */
  async deactivate(tx: RegistrationsDb, registrationId: string, reason: string): Promise<void> {
    const now = new Date();
    await tx.registration.update({ where: { id: registrationId }, data: { deletedAt: now, updatedAt: now } });
    await tx.delivery.updateMany({
      where: { registrationId, status: { in: ['pending', 'retry_scheduled'] } },
      data: { status: 'failed', nextAttemptAt: null, lastError: reason, updatedAt: now },
    });
  }
}
