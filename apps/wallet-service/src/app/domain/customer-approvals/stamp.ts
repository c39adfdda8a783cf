import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { CustomerApprovalStamp } from '@service/contracts';
import { ServiceError } from '@service/errors';

/** The scheme `@turnkey/api-key-stamper` names in every stamp: ECDSA P-256 over SHA-256, DER signature in hex. */
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

/** DER prefix of a SubjectPublicKeyInfo holding a compressed P-256 point (id-ecPublicKey, prime256v1, 33-byte bit string). */
const SPKI_P256_COMPRESSED = Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex');
const COMPRESSED_HEX = /^0[23][0-9a-f]{64}$/;

/** A compressed P-256 public key as a Node key, or null when it is not a point of the curve. */
export function publicKeyOf(hex: string): KeyObject | null {
  const lower = hex.toLowerCase();
  if (!COMPRESSED_HEX.test(lower)) return null;
  try {
    return createPublicKey({ key: Buffer.concat([SPKI_P256_COMPRESSED, Buffer.from(lower, 'hex')]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

/** What a stamp says: who signed (lower-case hex) and the DER signature. */
export interface Stamp {
  readonly publicKey: string;
  readonly signature: Buffer;
}

function invalid(why: string): ServiceError {
  return new ServiceError('invalid_stamp', `customerApprovalStamp ${why}.`);
}

/**
 * Reads a stamp as `ApiKeyStamper.stamp` makes it: the `X-Stamp` value (base64url JSON
 * `{publicKey, scheme, signature}`), alone or inside `{stampHeaderName, stampHeaderValue}`.
 */
export function parseStamp(stamp: CustomerApprovalStamp): Stamp {
  const value = typeof stamp === 'string' ? stamp : stamp.stampHeaderValue;
  if (typeof stamp !== 'string' && stamp.stampHeaderName.toLowerCase() !== 'x-stamp') throw invalid('must be an X-Stamp header');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid('is not base64url JSON');
  }
  const { publicKey, scheme, signature } = (parsed ?? {}) as Record<string, unknown>;
  if (scheme !== STAMP_SCHEME) throw invalid(`must use the scheme ${STAMP_SCHEME}`);
  if (typeof publicKey !== 'string' || !COMPRESSED_HEX.test(publicKey.toLowerCase()))
    throw invalid('must carry a compressed P-256 publicKey');
  if (typeof signature !== 'string' || !/^(?:[0-9a-fA-F]{2}){8,80}$/.test(signature)) throw invalid('must carry a hex DER signature');
  return { publicKey: publicKey.toLowerCase(), signature: Buffer.from(signature, 'hex') };
}

/** Whether the stamp's signature verifies over the UTF-8 bytes of `payload` with the stamp's key. */
export function stampSigns(stamp: Stamp, payload: string): boolean {
  const key = publicKeyOf(stamp.publicKey);
  if (!key) return false;
  try {
    return verify('sha256', Buffer.from(payload, 'utf8'), key, stamp.signature);
  } catch {
    return false;
  }
}
