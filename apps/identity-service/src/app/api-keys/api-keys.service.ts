import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type {
  ApiKeyDto,
  ApiKeyPageDto,
  ApiKeyPrincipal,
  CreateApiKeyDto,
  CreatedApiKeyDto,
  RequestContext,
  RevokedApiKeyDto,
  Role,
} from '@service/contracts';
import { API_KEY_HASH_FORMAT } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { counter } from '@service/metrics';
import { NewestFirst } from '@service/pagination';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { IdentityConfig } from '../../config.js';
import type { ApiKey } from '../../generated/prisma/client.js';
import { generateKey, isKeyOf, keyHashOf, last4Of, sameHash } from '../domain/api-key-secret.js';
import { toApiKeyView, toCreatedView } from '../domain/api-key.view.js';
import { expiryOf, isRollable, isUsable, requireMayGrant, requireOrgId, rolledEndOf, successorExpiryOf } from '../domain/key-rules.js';
import { ApiKeysRepository, type NewApiKeyRow } from '../repositories/api-keys.repository.js';
import { EndAnnouncer } from './end-announcer.js';

const notFound = () => new ServiceError('api_key_not_found', 'API key not found.');
/** Rolling a key that expired or was already rolled: the same code as a revoked key, which it is about to be. */
const notRollable = () => new ServiceError('api_key_not_found', 'API key not found, expired or already rolled.');
/** One answer for an unknown, revoked or expired key and a key of the other environment. */
const keyLookups = counter({
  name: 'identity_api_key_lookups_total',
  help: 'API keys presented by the gateways: a usable key (hit) or not (miss: unknown, revoked, expired, another environment).',
  labelNames: ['result'] as const,
});
const KEY_LOOKUPS = { hit: keyLookups.labels('hit'), miss: keyLookups.labels('miss') } as const;

const unauthenticated = () => new ServiceError('unauthenticated', 'The API key is invalid, expired or revoked.');
/** Compared against when no key has the presented hash, so a miss costs what a match costs. */
const NO_HASH = new Uint8Array(32);

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly announcer: EndAnnouncer,
    @Inject(SERVICE_CONFIG) private readonly config: IdentityConfig,
  ) {}

  async create(ctx: RequestContext, input: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    requireMayGrant(ctx.role, input.role);
    const { row, secret } = this.newKey(ctx, { name: input.name, role: input.role, expiresAt: expiryOf(input.expiresAt, new Date()) });
    return toCreatedView(await this.keys.create(row), secret);
  }

  async list(ctx: RequestContext, query: { cursor?: string; limit?: number }): Promise<ApiKeyPageDto> {
    const page = new NewestFirst('api-keys', {}, query);
    return page.page(await this.keys.page(ctx.orgId, page), toApiKeyView);
  }

  async get(ctx: RequestContext, keyId: string): Promise<ApiKeyDto> {
    return toApiKeyView(await this.find(ctx.orgId, keyId));
  }

  /** Revokes the key and tells every gateway at once (after the commit). */
  async revoke(ctx: RequestContext, keyId: string): Promise<RevokedApiKeyDto> {
    const key = await this.find(ctx.orgId, keyId);
    requireMayGrant(ctx.role, key.role as Role);
    if (!(await this.keys.revoke(key.id, new Date()))) throw notFound();
    await this.announcer.announceNow();
    return { id: key.id, revoked: true };
  }

  /**
   * A new key of the same name, role and expiry; the old one keeps working for `expiresInSeconds`
   * (0: it is revoked at once and every gateway told). Only a working key that was not rolled yet
   * is rolled: an expired one would otherwise turn into a key that never expires, and a rolled
   * one (in its grace period) into a second successor.
   */
  async roll(ctx: RequestContext, keyId: string, expiresInSeconds = 0): Promise<CreatedApiKeyDto> {
    const old = await this.find(ctx.orgId, keyId);
    requireMayGrant(ctx.role, old.role as Role);
    const now = new Date();
    if (!isRollable(old, now)) throw notRollable();
    const { row, secret } = this.newKey(ctx, { name: old.name, role: old.role as Role, expiresAt: successorExpiryOf(old.expiresAt) });
    const created = await this.keys.roll(old.id, rolledEndOf(old.expiresAt, expiresInSeconds, now), row, now);
    if (!created) throw notRollable();
    if (expiresInSeconds <= 0) await this.announcer.announceNow();
    return toCreatedView(created, secret);
  }

  /**
   * The principal of a presented key. Whatever the key, the same work is done (the keyed hash, one
   * lookup by it, a constant-time comparison) and every failure is the same error, so neither the
   * answer nor its timing tells an unknown key from a revoked, expired or other-environment one.
   */
  async authenticate(key: string): Promise<ApiKeyPrincipal> {
    const ofThisEnvironment = isKeyOf(this.config.SERVICE_ENV, key);
    return this.authenticateHash(keyHashOf(key, this.config.IDENTITY_KEY_PEPPER), ofThisEnvironment);
  }

  /**
   * The principal of a key by its hash (`identity.api-keys.authenticate`): the gateway hashes the
   * presented key and has checked its environment, so the key never travels. A hash that is not
   * one (not 32 bytes of base64url) is looked up like any other, as a miss.
   */
  async authenticateByHash(keyHash: string): Promise<ApiKeyPrincipal> {
    const wellFormed = API_KEY_HASH_FORMAT.test(keyHash);
    return this.authenticateHash(wellFormed ? Buffer.from(keyHash, 'base64url') : Buffer.from(NO_HASH), wellFormed);
  }

  private async authenticateHash(hash: Buffer, acceptable: boolean): Promise<ApiKeyPrincipal> {
    const row = await this.keys.findByHash(hash);
    const matches = sameHash(row?.keyHash ?? NO_HASH, hash);
    const usable = row !== null && matches && acceptable && isUsable(row, new Date());
    KEY_LOOKUPS[usable ? 'hit' : 'miss'].inc();
    if (!row || !usable) throw unauthenticated();
    return { keyId: row.id, orgId: row.orgId, role: row.role as Role, expiresAt: row.expiresAt?.toISOString() ?? null };
  }

  private async find(orgId: string, keyId: string): Promise<ApiKey> {
    const key = await this.keys.findActiveInOrg(orgId, keyId);
    if (!key) throw notFound();
    return key;
  }

  private newKey(ctx: RequestContext, fields: { name: string; role: Role; expiresAt: Date | null }): { row: NewApiKeyRow; secret: string } {
    requireOrgId(ctx.orgId);
    const secret = generateKey(this.config.SERVICE_ENV);
    return {
      secret,
      row: {
        id: randomUUID(),
        orgId: ctx.orgId,
        name: fields.name,
        role: fields.role,
        keyHash: keyHashOf(secret, this.config.IDENTITY_KEY_PEPPER),
        last4: last4Of(secret),
        createdBy: ctx.principalId,
        expiresAt: fields.expiresAt,
      },
    };
  }
}
