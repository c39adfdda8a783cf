import type { ApiKeyVerifier } from './api-key-verifier.js';
import type { Principal, TokenVerifier } from './token-verifier.js';

/** What the request hooks authenticate with. */
export interface BearerVerifier {
  /** The principal of a credential verified recently, without waiting; undefined when it must be verified. */
  recall(authorization: string | undefined): Principal | undefined;
  /** The principal of the credential, or a `ServiceError` (401 `unauthenticated`, 503 when the identity service does not answer). */
  verify(authorization: string | undefined): Promise<Principal>;
}

/** The hot path's test: an API key is a bearer value starting `service_`. */
const KEY_BEARER = 'Bearer service_';
const API_KEY_HEADER = /^Bearer[ \t]+(service_\S*)$/i;

/**
 * The bearer credential of a request: an organization API key (`service_...`) or, otherwise, a
 * JWT, each with its own verifier and cache. Either becomes the same principal
 * (`principalId`, `orgId`, `role`), so every role rule, org scope and rate limit applies alike.
 */
export class BearerAuth implements BearerVerifier {
  constructor(
    private readonly tokens: TokenVerifier,
    private readonly keys: ApiKeyVerifier,
  ) {}

  recall(authorization: string | undefined): Principal | undefined {
    if (authorization === undefined) return undefined;
    if (authorization.startsWith(KEY_BEARER)) return this.keys.recall(authorization.slice(7));
    return this.tokens.recall(authorization);
  }

  verify(authorization: string | undefined): Promise<Principal> {
    const key = API_KEY_HEADER.exec(authorization?.trim() ?? '')?.[1];
    return key === undefined ? this.tokens.verify(authorization) : this.keys.verify(key);
  }
}
