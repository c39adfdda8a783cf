import type { ApiKeyDto, CreatedApiKeyDto, Role } from '@service/contracts';

/** The stored fields a view is made of. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  readonly last4: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly lastUsedAt: Date | null;
}

/** A key as listings show it: never the secret, which is not stored anyway. */
export function toApiKeyView(key: ApiKeyRecord): ApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    role: key.role as Role,
    last4: key.last4,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}

/** A key just made, with its secret: the one answer that holds it. */
export function toCreatedView(key: ApiKeyRecord, secret: string): CreatedApiKeyDto {
  return {
    id: key.id,
    name: key.name,
    role: key.role as Role,
    key: secret,
    last4: key.last4,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
  };
}
