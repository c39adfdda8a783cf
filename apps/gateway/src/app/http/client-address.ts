import type { FastifyRequest } from 'fastify';

/**
 * Who a request comes from, for the limits on unauthenticated callers. Without a configured
 * header it is the socket's peer: a header the client wrote itself would let it pick any address.
 * Behind a proxy that writes `trustedHeader`, it is that header's last entry, the address the
 * trusted proxy itself saw (a proxy appends to `X-Forwarded-For`; entries before it are the
 * client's own words).
 */
export function clientAddressOf(request: FastifyRequest, trustedHeader: string): string {
  const peer = request.socket.remoteAddress ?? 'unknown';
  if (trustedHeader === '') return peer;
  const value = request.headers[trustedHeader];
  const raw = Array.isArray(value) ? value[value.length - 1] : value;
  const last = raw?.slice(raw.lastIndexOf(',') + 1).trim();
  return last ? last : peer;
}
