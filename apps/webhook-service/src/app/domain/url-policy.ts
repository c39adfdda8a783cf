import { BlockList, isIP } from 'node:net';
import { ServiceError } from '@service/errors';

export interface UrlPolicy {
  /** Production: receivers must use https. */
  readonly httpsOnly: boolean;
  /** Sandbox and local runs: private, loopback and link-local receivers are allowed. */
  readonly allowPrivate: boolean;
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** True for private, loopback, link-local, multicast and reserved addresses (IPv4-mapped IPv6 included). */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The part of the registration-time check that needs no lookup: an absolute http(s) URL (https
 * only when the policy says so) without credentials; anything else is `validation_error`.
 */
export function parseReceiverUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError('validation_error', 'url must be an absolute http or https URL.');
  }
  if (url.protocol !== 'https:' && (policy.httpsOnly || url.protocol !== 'http:')) {
    throw new ServiceError('validation_error', policy.httpsOnly ? 'url must use https.' : 'url must use http or https.');
  }
  if (url.username || url.password) throw new ServiceError('validation_error', 'url must not contain credentials.');
  return url;
}
