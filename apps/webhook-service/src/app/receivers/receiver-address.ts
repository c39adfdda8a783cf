import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ServiceError } from '@service/errors';
import { isNonPublicAddress, mayBePrivate, parseReceiverUrl, type UrlPolicy } from '../domain/url-policy.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** The addresses a host name resolves to (the system resolver, as a connection would use). */
export type HostLookup = (host: string) => Promise<ResolvedAddress[]>;

const systemLookup: HostLookup = async (host) =>
  (await lookup(host, { all: true })).map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 }));

/** A receiver's host resolved to no address, or to one the policy refuses. */
export class ReceiverAddressError extends Error {
  constructor(
    readonly reason: 'unresolved' | 'not_allowed',
    message: string,
  ) {
    super(message);
    this.name = 'ReceiverAddressError';
  }
}

/**
 * Where a delivery may connect: every address the host resolves to must pass the policy (a
 * non-public one only for a host on the policy's allowlist), and the caller connects to the one
 * returned, so a DNS answer cannot change between check and connect.
 */
export async function resolveReceiver(url: URL, policy: UrlPolicy, lookupHost: HostLookup = systemLookup): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  const addresses: ResolvedAddress[] = literal ? [{ address: host, family: literal as 4 | 6 }] : await lookupHost(host);
  const first = addresses[0];
  if (!first) throw new ReceiverAddressError('unresolved', `${host} does not resolve`);
  if (!mayBePrivate(url, policy) && addresses.some((entry) => isNonPublicAddress(entry.address))) {
    throw new ReceiverAddressError('not_allowed', `${host} resolves to a private, loopback or link-local address`);
  }
  return first;
}

/** How long a host's checked address is used before the host is looked up again. */
const ADDRESS_TTL_MS = 10_000;
/** Hosts remembered at most; past this the memory starts over. */
const MAX_HOSTS = 10_000;

/**
 * {@link resolveReceiver} for the delivery path, with each host's checked address kept for
 * {@link ADDRESS_TTL_MS}: a receiver named by a host name cost a `dns.lookup` (the libuv thread
 * pool, and a query to the cluster's DNS) on every delivery, although a kept-alive connection to
 * it was usually at hand. Lookups of one host that overlap are one lookup. Only an address that
 * passed the policy is kept (a failure is looked up again next time), and a delivery still
 * connects to exactly the address that was checked; a host whose address changes is reached at
 * its new address within the TTL.
 */
export class ReceiverAddresses {
  private readonly hosts = new Map<string, { readonly address: Promise<ResolvedAddress>; readonly until: number }>();

  constructor(
    private readonly policy: UrlPolicy,
    private readonly lookupHost: HostLookup = systemLookup,
    private readonly now: () => number = Date.now,
  ) {}

  resolve(url: URL): Promise<ResolvedAddress> {
    const key = url.hostname;
    const kept = this.hosts.get(key);
    if (kept && kept.until > this.now()) return kept.address;
    const address = resolveReceiver(url, this.policy, this.lookupHost);
    if (this.hosts.size >= MAX_HOSTS) this.hosts.clear();
    this.hosts.set(key, { address, until: this.now() + ADDRESS_TTL_MS });
    address.catch(() => {
      if (this.hosts.get(key)?.address === address) this.hosts.delete(key);
    });
    return address;
  }
}

/** What a registration answers for a host that does not resolve, or not to public addresses only. */
export const RECEIVER_HOST_REFUSED = 'url is not allowed: its host must resolve, and only to public addresses.';

/**
 * The registration-time check: `validation_error` naming what is wrong with the URL. A host that
 * does not resolve or resolves to a refused address gets one fixed message (no resolver or socket
 * text, nothing telling an internal name that exists from one that does not); `onRefused` sees
 * the detail for the service's log.
 */
export async function checkRegistrationUrl(
  raw: string,
  policy: UrlPolicy,
  onRefused: (detail: Error) => void = () => undefined,
  lookupHost: HostLookup = systemLookup,
): Promise<void> {
  const url = parseReceiverUrl(raw, policy);
  try {
    await resolveReceiver(url, policy, lookupHost);
  } catch (error) {
    onRefused(error as Error);
    throw new ServiceError('validation_error', RECEIVER_HOST_REFUSED);
  }
}
