import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ServiceError } from '@service/errors';
import { isNonPublicAddress, parseReceiverUrl, type UrlPolicy } from '../domain/url-policy.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * Where a delivery may connect: every address the host resolves to must pass the policy, and the
 * caller connects to the one returned, so a DNS answer cannot change between check and connect.
 */
export async function resolveReceiver(url: URL, policy: UrlPolicy): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  const addresses: ResolvedAddress[] = literal
    ? [{ address: host, family: literal as 4 | 6 }]
    : (await lookup(host, { all: true })).map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 }));
  const first = addresses[0];
  if (!first) throw new Error(`${host} does not resolve`);
  if (!policy.allowPrivate && addresses.some((entry) => isNonPublicAddress(entry.address))) {
    throw new Error(`${host} resolves to a private, loopback or link-local address`);
  }
  return first;
}

/** The registration-time check: `validation_error` naming what is wrong with the URL. */
export async function checkRegistrationUrl(raw: string, policy: UrlPolicy): Promise<void> {
  const url = parseReceiverUrl(raw, policy);
  if (policy.allowPrivate) return;
  try {
    await resolveReceiver(url, policy);
  } catch (error) {
    throw new ServiceError('validation_error', `url is not allowed: ${(error as Error).message}.`);
  }
}
