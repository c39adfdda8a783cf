/** Injection symbols of this service's providers that are not classes. */

/** The environment's gtoken allowlist (`AllowlistTarget` in chain/allowlist-target.ts). */
export const ALLOWLIST_TARGET = Symbol('ALLOWLIST_TARGET');
