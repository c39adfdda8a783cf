import { createHash } from 'node:crypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

/** Bitcoin-alphabet base58, as Solana and TRON write addresses; leading zero bytes become '1'. */
export function base58(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/** The bytes of a base58 string, or null when a character is outside the alphabet. */
export function unbase58(text: string): Buffer | null {
  let value = 0n;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = /^1*/.exec(text)?.[0].length ?? 0;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

/** base58 with a 4-byte double-SHA-256 checksum (TRON's T-addresses). */
export function base58check(payload: Uint8Array): string {
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58(Buffer.concat([payload, checksum]));
}

/** The payload of a base58check string, or null when it is malformed or its checksum is wrong. */
export function unbase58check(text: string): Buffer | null {
  const bytes = unbase58(text);
  if (!bytes || bytes.length < 5) return null;
  const payload = bytes.subarray(0, bytes.length - 4);
  return sha256(sha256(payload)).subarray(0, 4).equals(bytes.subarray(bytes.length - 4)) ? payload : null;
}
