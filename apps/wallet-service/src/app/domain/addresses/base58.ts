import { createHash } from 'node:crypto';
import { base58 as base58Coder, createBase58check } from '@scure/base';

const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();
/** base58 with a 4-byte double-SHA-256 checksum (TRON's T-addresses). */
const base58checkCoder = createBase58check(sha256);

/** Reads with `decode`, or null when the text is not of that encoding. */
function decodeOrNull(decode: (text: string) => Uint8Array, text: string): Uint8Array | null {
  try {
    return decode(text);
  } catch {
    return null;
  }
}

/** Bitcoin-alphabet base58, as Solana and TRON write addresses; leading zero bytes become '1'. */
export function base58(bytes: Uint8Array): string {
  return base58Coder.encode(bytes);
}

/** The bytes of a base58 string, or null when a character is outside the alphabet. */
export function unbase58(text: string): Uint8Array | null {
  return decodeOrNull(base58Coder.decode, text);
}

/** base58check: the payload and the first 4 bytes of its double SHA-256. */
export function base58check(payload: Uint8Array): string {
  return base58checkCoder.encode(payload);
}

/** The payload of a base58check string, or null when it is malformed or its checksum is wrong. */
export function unbase58check(text: string): Uint8Array | null {
  return decodeOrNull(base58checkCoder.decode, text);
}
