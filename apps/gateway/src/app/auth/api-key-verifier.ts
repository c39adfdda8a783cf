import { randomUUID } from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  type ApiKeyPrincipal,
  apiKeyHashText,
  BROADCASTS,
  type BroadcastPayloadOf,
  isApiKeyOf,
  isOrgId,
  type RequestContext,
  SUBJECTS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { SubjectClient } from '@service/nats';
import { ConcurrencyLimit } from './concurrency-limit.js';
import type { Principal } from './token-verifier.js';

/** A verified key is remembered this long at most (never past its expiry); revocations evict it sooner. */
export const API_KEY_CACHE_TTL_MS = 30_000;
/** An unknown, revoked or expired key is remembered as such this long, so repeating it costs no lookup. */
export const API_KEY_NEGATIVE_TTL_MS = 5_000;
/** `identity.api-keys.used` goes out at most this often per key from one gateway. */
export const API_KEY_USE_REPORT_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;
/** Identity lookups one gateway runs at once; more wait their turn. */
export const MAX_CONCURRENT_LOOKUPS = 32;
/** Lookups that may wait; past this a new one is answered 503 at once rather than queued without end. */
export const MAX_WAITING_LOOKUPS = 1_000;
/** Longer than any key (`service_sandbox_` + 43): a longer value is refused without a lookup. */
const MAX_KEY_LENGTH = 128;
const KEY_SHAPE = /^service_[A-Za-z0-9_]+$/;

/** One answer for every key that does not work, whatever the reason. */
export const INVALID_KEY_MESSAGE = 'The API key is invalid, expired or revoked.';

/** The part of the identity service the verifier asks on a miss. */
export interface KeyAuthority {
  authenticate(key: string): Promise<ApiKeyPrincipal>;
}

/** The part of NATS the verifier uses: the revocation broadcast in, the use notice out. */
export interface KeyBroadcasts {
  onRevoked(evict: (keyId: string) => void): void;
  reportUse(keyId: string): void;
}

/** A key that works; keys that don't are only in `refused`. */
interface Entry {
  readonly principal: Principal;
  readonly keyId: string;
  readonly until: number;
}

/**
 * Verifies organization API keys (`service_sandbox_...` / `service_prod_...`) for the gateway.
 * A presented key is remembered (in memory only, like the JWT cache's tokens; never logged) for 30 s at
 * most and never past its expiry; a key that does not work is remembered as such for 5 s. On a miss the identity
 * service is asked (`identity.api-keys.authenticate`, with the key's hash: the key stays here), which does the same work for every key, so
 * a miss costs the same whether the key exists or not. A revocation broadcast evicts the key's
 * entries on every replica, and the key id stays refused here for a cache lifetime, so a lookup
 * that was in flight during the revocation cannot put it back.
 *
 * Keys that work and keys that don't are remembered in two maps of their own, each evicting its
 * oldest entry when full (the refused ones least recently used first), so a flood of random keys cannot push working keys out.
 * Lookups run at most {@link MAX_CONCURRENT_LOOKUPS} at a time per gateway.
 */
export class ApiKeyVerifier {
  /** Keys that work -> their entry. */
  private readonly cache = new Map<string, Entry>();
  /** Keys that don't work -> until when they are refused without asking. */
  private readonly refused = new Map<string, number>();
  private readonly lookups = new ConcurrencyLimit(MAX_CONCURRENT_LOOKUPS, MAX_WAITING_LOOKUPS);
  /** Cached keys of each key id, to evict them by id. */
  private readonly keysOf = new Map<string, Set<string>>();
  /** Key ids revoked recently -> until when they stay refused without asking. */
  private readonly revoked = new Map<string, number>();
  /** Key id -> when its next use may be reported. */
  private readonly reportDue = new Map<string, number>();
  /** Lookups under way, by key: concurrent first requests with one key ask once. */
  private readonly inFlight = new Map<string, Promise<Entry | undefined>>();

  constructor(
    private readonly authority: KeyAuthority,
    private readonly broadcasts: KeyBroadcasts,
  ) {
    broadcasts.onRevoked((keyId) => this.evict(keyId));
  }

  /** The principal of a key verified recently, without waiting; undefined when it must be looked up (or does not work). */
  recall(key: string): Principal | undefined {
    const entry = this.cache.get(key);
    if (entry === undefined) return undefined;
    const now = Date.now();
    if (entry.until <= now) return undefined;
    this.noteUse(entry.keyId, now);
    return entry.principal;
  }

  async verify(key: string): Promise<Principal> {
    if (key.length > MAX_KEY_LENGTH || !KEY_SHAPE.test(key)) throw invalidKey();
    const now = Date.now();
    const refusedUntil = this.refused.get(key);
    if (refusedUntil !== undefined && refusedUntil > now) {
      // Least recently used first out: a key the flood keeps sending stays refused without a lookup.
      this.refused.delete(key);
      this.refused.set(key, refusedUntil);
      throw invalidKey();
    }
    let entry = this.cache.get(key);
    if (entry === undefined || entry.until <= now) {
      let lookup = this.inFlight.get(key);
      if (!lookup) {
        lookup = this.lookUp(key).finally(() => this.inFlight.delete(key));
        this.inFlight.set(key, lookup);
      }
      entry = await lookup;
    }
    if (entry === undefined) throw invalidKey();
    this.noteUse(entry.keyId, Date.now());
    return entry.principal;
  }

  /** Forgets every cached entry of the key and refuses it for a cache lifetime (a revocation broadcast). */
  evict(keyId: string): void {
    const now = Date.now();
    for (const [id, until] of this.revoked) {
      if (until > now) break;
      this.revoked.delete(id);
    }
    this.revoked.delete(keyId);
    this.revoked.set(keyId, now + API_KEY_CACHE_TTL_MS);
    for (const key of this.keysOf.get(keyId) ?? []) this.cache.delete(key);
    this.keysOf.delete(keyId);
    this.reportDue.delete(keyId);
  }

  /** The key's entry, or undefined when it does not work. */
  private async lookUp(key: string): Promise<Entry | undefined> {
    let found: ApiKeyPrincipal;
    try {
      found = await this.lookups.run(() => this.authority.authenticate(key));
    } catch (error) {
      // Unavailability is not an answer about the key: not remembered, the caller gets the 503.
      if (error instanceof ServiceError && error.code === 'unauthenticated') return this.refuse(key);
      throw error;
    }
    const now = Date.now();
    if ((this.revoked.get(found.keyId) ?? 0) > now) return this.refuse(key);
    // A key stored for an org outside the format (`*` is the internal "every organization") works nowhere.
    if (!isOrgId(found.orgId)) return this.refuse(key);
    const expiresAt = found.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(found.expiresAt);
    const principal: Principal = { principalId: `key_${found.keyId}`, orgId: found.orgId, role: found.role };
    return this.remember(key, found.keyId, principal, Math.min(now + API_KEY_CACHE_TTL_MS, expiresAt));
  }

  private refuse(key: string): undefined {
    this.refused.delete(key);
    if (this.refused.size >= CACHE_MAX_ENTRIES) this.refused.delete(this.refused.keys().next().value as string);
    this.refused.set(key, Date.now() + API_KEY_NEGATIVE_TTL_MS);
    this.cache.delete(key);
    return undefined;
  }

  private remember(key: string, keyId: string, principal: Principal, until: number): Entry {
    const entry: Entry = { principal, keyId, until };
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.dropOldest();
    this.cache.delete(key);
    this.cache.set(key, entry);
    this.refused.delete(key);
    let keys = this.keysOf.get(keyId);
    if (!keys) this.keysOf.set(keyId, (keys = new Set()));
    keys.add(key);
    return entry;
  }

  private dropOldest(): void {
    const oldest = this.cache.entries().next().value;
    if (!oldest) return;
    const [key, entry] = oldest;
    this.cache.delete(key);
    this.keysOf.get(entry.keyId)?.delete(key);
  }

  /** Reports a use to the identity service at most once a minute per key, off the request path. */
  private noteUse(keyId: string, now: number): void {
    const due = this.reportDue.get(keyId);
    if (due !== undefined && due > now) return;
    if (this.reportDue.size >= CACHE_MAX_ENTRIES) this.reportDue.clear();
    this.reportDue.set(keyId, now + API_KEY_USE_REPORT_MS);
    this.broadcasts.reportUse(keyId);
  }
}

function invalidKey(): ServiceError {
  return new ServiceError('unauthenticated', INVALID_KEY_MESSAGE);
}

/** The gateway's own context on the authentication lookup: there is no principal yet. */
function authenticationContext(): RequestContext {
  return { orgId: 'system', principalId: 'gateway-auth', role: 'member', requestId: randomUUID() };
}

/**
 * The identity service over NATS, as the verifier asks it. The key itself never leaves the
 * gateway: identity-service is sent the key's hash under the shared pepper (what it stores for
 * the key, `apiKeyHashOf`), and a key of another environment (a production key at a sandbox
 * gateway, say) is refused here, as identity-service would.
 */
export function identityAuthority(
  services: SubjectClient,
  options: { pepper: Uint8Array; environment: 'sandbox' | 'production' },
): KeyAuthority {
  return {
    async authenticate(key) {
      if (!isApiKeyOf(options.environment, key)) throw invalidKey();
      return services.request(SUBJECTS.identity.apiKeysAuthenticate, {
        ctx: authenticationContext(),
        keyHash: apiKeyHashText(key, options.pepper),
      });
    },
  };
}

/**
 * The broadcasts over NATS: every replica subscribes to revocations without a queue group (each
 * must evict); use notices are plain publishes the identity service's queue group takes.
 */
export function natsKeyBroadcasts(nats: NatsConnection): KeyBroadcasts & { close(): void } {
  let subscription: Subscription | undefined;
  return {
    onRevoked(evict) {
      subscription = nats.subscribe(BROADCASTS.apiKeyRevoked, {
        callback: (error, message) => {
          if (error) return;
          try {
            const { keyId } = message.json<BroadcastPayloadOf<typeof BROADCASTS.apiKeyRevoked>>();
            if (typeof keyId === 'string') evict(keyId);
          } catch {
            // not a revocation payload
          }
        },
      });
    },
    reportUse(keyId) {
      const payload: BroadcastPayloadOf<typeof BROADCASTS.apiKeyUsed> = { keyId };
      try {
        nats.publish(BROADCASTS.apiKeyUsed, JSON.stringify(payload));
      } catch {
        // A closed or draining connection: lastUsedAt is best effort.
      }
    },
    close() {
      subscription?.unsubscribe();
    },
  };
}
