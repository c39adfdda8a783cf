import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { isOrgId, ROLES, type Role } from '@service/contracts';
import { ServiceError } from '@service/errors';

export interface Principal {
  readonly principalId: string;
  readonly orgId: string;
  readonly role: Role;
}

/** Asymmetric algorithms only: `none` and HMAC (a token "signed" with the public key) never verify. */
const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Verified tokens are remembered this long at most, so a rotated-out key stops working soon. */
const CACHE_TTL_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;

type KeySource = KeyObject | ReturnType<typeof createRemoteJWKSet>;

/**
 * Verifies bearer JWTs: signature with the configured key or JWKS, `iss`, `aud`, `exp`, and the
 * claims `sub`, `org` and `role`. A verified token is cached until it expires (at most a minute),
 * which takes signature checks off the hot path of clients that reuse their token.
 */
export class TokenVerifier {
  private readonly cache = new Map<string, { principal: Principal; until: number }>();
  private readonly key: KeySource;

  constructor(private readonly options: { publicKeyPem?: string; jwksUrl?: string; issuer: string; audience: string }) {
    this.key = options.jwksUrl ? createRemoteJWKSet(new URL(options.jwksUrl)) : publicKeyOf(options.publicKeyPem ?? '');
  }

  /** The principal of a token verified recently, without waiting; undefined when it must be verified. */
  recall(authorization: string | undefined): Principal | undefined {
    if (authorization === undefined || !authorization.startsWith('Bearer ')) return undefined;
    return this.remembered(authorization.slice(7), Date.now());
  }

  async verify(authorization: string | undefined): Promise<Principal> {
    const token = bearerToken(authorization);
    const now = Date.now();
    const known = this.remembered(token, now);
    if (known) return known;

    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.key as KeyObject, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: ASYMMETRIC_ALGORITHMS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthenticated('The access token has expired.');
      throw unauthenticated('The access token is invalid.');
    }
    const principal = toPrincipal(payload);
    this.remember(token, principal, Math.min(now + CACHE_TTL_MS, (payload.exp ?? 0) * 1000));
    return principal;
  }

  private remembered(token: string, now: number): Principal | undefined {
    const cached = this.cache.get(token);
    return cached && cached.until > now ? cached.principal : undefined;
  }

  private remember(token: string, principal: Principal, until: number): void {
    if (this.cache.size >= CACHE_MAX_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(token, { principal, until });
  }
}

function publicKeyOf(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.type !== 'public') throw new Error('AUTH_PUBLIC_KEY must hold a public key');
  return key;
}

function bearerToken(authorization: string | undefined): string {
  if (!authorization) throw unauthenticated('Missing bearer token: send Authorization: Bearer <token>.');
  const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/i.exec(authorization.trim());
  if (!match?.[1]) throw unauthenticated('The Authorization header must be "Bearer <API key>" or "Bearer <JWT>".');
  return match[1];
}

function toPrincipal(payload: JWTPayload): Principal {
  const { sub, org, role } = payload as JWTPayload & { org?: unknown; role?: unknown };
  if (typeof sub !== 'string' || sub === '' || typeof org !== 'string' || org === '') {
    throw unauthenticated('The access token lacks the sub or org claim.');
  }
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    throw unauthenticated('The access token has no valid role claim.');
  }
  // An org outside the format (`*` is the internal "every organization") is not an organization.
  if (!isOrgId(org)) throw unauthenticated('The access token is invalid.');
  return { principalId: sub, orgId: org, role: role as Role };
}

function unauthenticated(message: string): ServiceError {
  return new ServiceError('unauthenticated', message);
}
