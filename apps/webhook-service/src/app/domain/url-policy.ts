import { BlockList, isIP } from 'node:net';
import { ServiceError } from '@service/errors';

export interface UrlPolicy {
  /** Production: receivers must use https. */
  readonly httpsOnly: boolean;
  /**
   * Hosts (normalized by {@link privateHostAllowlist}) that may be or resolve to a private,
   * loopback or link-local address, for local development; every other host must resolve to
   * public addresses only. Empty by default.
   */
  readonly privateHosts: ReadonlySet<string>;
}

const blockedV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedV4.addSubnet(network, prefix, 'ipv4');
}

/**
 * Non-public IPv6 ranges, checked by hand: node's BlockList matches IPv4 addresses against IPv6
 * rules on `::ffff:0:0/96`, so that rule there would refuse every IPv4 receiver. The transition
 * ranges reach IPv4 hosts (private ones included) through a translator or a tunnel, so each is
 * refused whole.
 */
const BLOCKED_V6: readonly (readonly [string, number])[] = [
  ['::', 96], // unspecified, loopback and IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // IPv4-translated
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];

/** The 128 bits of an IPv6 address (any text form node accepts, embedded IPv4 included). */
function ipv6Bits(address: string): bigint {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const blockedV6 = BLOCKED_V6.map(([network, prefix]) => ({
  network: ipv6Bits(network) >> BigInt(128 - prefix),
  shift: BigInt(128 - prefix),
}));

/**
 * True for private, loopback, link-local, multicast, reserved and IPv6 transition addresses
 * (IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64, 6to4, Teredo), and for anything that is
 * not an IP address.
 */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family === 0) return true;
  const bits = ipv6Bits(address.replace(/%.*$/, ''));
  return blockedV6.some(({ network, shift }) => bits >> shift === network);
}

/** How a URL's host compares with an allowlist entry: lower case, IPv6 in brackets, no trailing dot. */
function normalizedHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/**
 * Parses `WEBHOOK_PRIVATE_HOST_ALLOWLIST`: comma-separated host names or IP addresses, each
 * exactly as a receiver URL names it (no scheme, port, path or wildcard); empty entries are
 * ignored. Throws a message saying what is wrong.
 */
export function privateHostAllowlist(raw: string): ReadonlySet<string> {
  const hosts = new Set<string>();
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const literal = isIP(entry) === 6 ? `[${entry}]` : entry;
    let host: string | undefined;
    try {
      const url = new URL(`http://${literal}/`);
      if (url.host === url.hostname && /^(\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)*\.?)$/i.test(literal)) host = url.hostname;
    } catch {
      host = undefined;
    }
    if (!host) throw new Error(`must be comma-separated host names or IP addresses without scheme, port, path or wildcard, got "${entry}"`);
    hosts.add(normalizedHost(host));
  }
  return hosts;
}

/** True when the policy lets `url`'s host be or resolve to a non-public address. */
export function mayBePrivate(url: URL, policy: UrlPolicy): boolean {
  return policy.privateHosts.has(normalizedHost(url.hostname));
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
