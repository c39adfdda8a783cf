import { base32nopad } from '@scure/base';

/** Version byte of an Ed25519 public key ("G..." account id): 6 << 3. */
const ACCOUNT_ID_VERSION = 6 << 3;

/**
 * CRC16-XModem (polynomial 0x1021, initial 0), the checksum of Stellar StrKeys. Kept here: no
 * dependency of the workspace provides it.
 */
export function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** A Stellar account id (G-address) of a 32-byte Ed25519 public key: base32 of version, key and CRC16 (little-endian). */
export function stellarAccountId(publicKey: Uint8Array): string {
  const payload = Buffer.concat([Buffer.from([ACCOUNT_ID_VERSION]), publicKey]);
  const crc = crc16xmodem(payload);
  return base32nopad.encode(Buffer.concat([payload, Buffer.from([crc & 0xff, crc >> 8])]));
}

/** Whether `text` is a G-address: 56 base32 characters, the account version byte, a valid checksum. */
export function isStellarAccountId(text: string): boolean {
  if (text.length !== 56 || !text.startsWith('G')) return false;
  let bytes: Uint8Array;
  try {
    bytes = base32nopad.decode(text);
  } catch {
    return false;
  }
  if (bytes.length !== 35 || bytes[0] !== ACCOUNT_ID_VERSION) return false;
  const crc = crc16xmodem(bytes.subarray(0, 33));
  // 35 bytes are exactly 56 characters (no spare bits), so the encoding is canonical.
  return bytes[33] === (crc & 0xff) && bytes[34] === crc >> 8;
}
