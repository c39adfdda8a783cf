import { ReceiverAddressError } from './receiver-address.js';

/** The attempt was cut at the delivery timeout. */
export class DeliveryTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'DeliveryTimeout';
  }
}

const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'ENODATA',
  'ESERVFAIL',
  'ENOTIMP',
  'EREFUSED',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|EPROTO$)|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

/**
 * What the delivery feed shows (`lastError`, `errorMessage`) for an attempt the receiver did not
 * answer: one of a small fixed set, never the socket's or the resolver's own text (addresses,
 * ports, internal host names). Answered attempts show `HTTP <status>`, set by the sender.
 */
export function shownDeliveryError(error: unknown): string {
  if (error instanceof DeliveryTimeout) return `timed out after ${error.timeoutMs} ms`;
  if (error instanceof ReceiverAddressError) return error.reason === 'unresolved' ? 'DNS lookup failed' : 'address not allowed';
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (DNS_CODES.has(code)) return 'DNS lookup failed';
  if (RESET_CODES.has(code)) return 'connection reset';
  if (UNREACHABLE_CODES.has(code)) return 'host unreachable';
  if (code === 'ETIMEDOUT') return 'connection timed out';
  if (TLS_CODE.test(code)) return 'TLS error';
  if (code.startsWith('HPE_')) return 'invalid HTTP response';
  return 'connection failed';
}
