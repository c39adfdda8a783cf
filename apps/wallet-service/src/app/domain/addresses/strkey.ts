const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Version byte of an Ed25519 public key ("G..." account id): 6 << 3. */
const ACCOUNT_ID_VERSION = 6 << 3;

/** CRC16-XModem (polynomial 0x1021, initial 0), the checksum of Stellar StrKeys. */
export function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let text = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) text += BASE32[(value << (5 - bits)) & 31];
  return text;
}

function unbase32(text: string): Buffer | null {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) return null;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A Stellar account id (G-address) of a 32-byte Ed25519 public key. */
export function stellarAccountId(publicKey: Uint8Array): string {
  const payload = Buffer.concat([Buffer.from([ACCOUNT_ID_VERSION]), publicKey]);
  const crc = crc16xmodem(payload);
  return base32(Buffer.concat([payload, Buffer.from([crc & 0xff, crc >> 8])]));
}

/** Whether `text` is a G-address: 56 base32 characters, the account version byte, a valid checksum. */
export function isStellarAccountId(text: string): boolean {
  if (text.length !== 56 || !text.startsWith('G')) return false;
  const bytes = unbase32(text);
  if (!bytes || bytes.length !== 35 || bytes[0] !== ACCOUNT_ID_VERSION) return false;
  const crc = crc16xmodem(bytes.subarray(0, 33));
  // The last character carries no spare bits (35 bytes = 56 characters exactly), so re-encoding is canonical.
  return bytes[33] === (crc & 0xff) && bytes[34] === crc >> 8 && stellarAccountId(bytes.subarray(1, 33)) === text;
}
