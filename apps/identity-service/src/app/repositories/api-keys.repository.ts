import { Injectable } from '@nestjs/common';
import type { NewestFirst } from '@service/pagination';
import type { ApiKey } from '../../generated/prisma/client.js';
import type { RolledEnd } from '../domain/key-rules.js';
import { PrismaService } from '../prisma.service.js';

/** A key as stored when made. */
export interface NewApiKeyRow {
  readonly id: string;
  readonly orgId: string;
  readonly name: string;
  readonly role: string;
  readonly keyHash: Buffer;
  readonly last4: string;
  readonly createdBy: string;
  readonly expiresAt: Date | null;
}

/** Every SQL of the `api_keys` table. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(row: NewApiKeyRow): Promise<ApiKey> {
    return this.prisma.apiKey.create({ data: { ...row, keyHash: new Uint8Array(row.keyHash) } });
  }

  /** A key of the organization that was not revoked; null for an unknown id, another organization's or a revoked key. */
  findActiveInOrg(orgId: string, id: string): Promise<ApiKey | null> {
    return this.prisma.apiKey.findFirst({ where: { id, orgId, revokedAt: null } });
  }

  /** The organization's keys not revoked, one page, newest first. */
  page(orgId: string, page: NewestFirst): Promise<ApiKey[]> {
    return this.prisma.apiKey.findMany(page.findArgs({ orgId, revokedAt: null }));
  }

  /** The key with this keyed hash (unique index), whatever its state. */
  findByHash(keyHash: Buffer): Promise<ApiKey | null> {
    return this.prisma.apiKey.findUnique({ where: { keyHash: new Uint8Array(keyHash) } });
  }

  /** Revokes a key not revoked yet; false when it already was (a concurrent revoke won). */
  async revoke(id: string, at: Date): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    return count === 1;
  }

  /**
   * Stores the successor and ends the old key in one transaction, recording the successor on it;
   * null when the old key was revoked, expired or rolled meanwhile (nothing is stored then): of
   * concurrent rolls of one key, one wins.
   */
  roll(oldId: string, end: RolledEnd, successor: NewApiKeyRow, now: Date): Promise<ApiKey | null> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.apiKey.updateMany({
        where: { id: oldId, revokedAt: null, successorId: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
        data: { ...end, successorId: successor.id },
      });
      if (count !== 1) return null;
      return tx.apiKey.create({ data: { ...successor, keyHash: new Uint8Array(successor.keyHash) } });
    });
  }

  /** Records a use, at most once a minute per key whatever the number of gateway replicas reporting it. */
  async recordUse(id: string, at: Date): Promise<void> {
    await this.prisma.apiKey.updateMany({
      where: { id, revokedAt: null, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(at.getTime() - 60_000) } }] },
      data: { lastUsedAt: at },
    });
  }

  /**
   * Keys that stopped working (revoked, or past their expiry) whose end was not announced yet,
   * marked announced: each is returned to exactly one caller, whatever the number of replicas.
   */
  async claimEnded(): Promise<string[]> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(
      `UPDATE api_keys SET end_announced_at = now()
        WHERE end_announced_at IS NULL AND (revoked_at IS NOT NULL OR expires_at <= now())
        RETURNING id::text AS id`,
    );
    return rows.map((row) => row.id);
  }
}
